"""player seats: a player's own page opened by a secret link (issue 21)

A seat names its table and the player's name at it, and holds the link's secret; the organizer
revokes a seat (``revoked_at``), and a player has at most one live seat per table (a unique
index over the seats not revoked).

Revision ID: 0004_player_seats
Revises: 0003_event_language
Create Date: 2026-12-20 12:00:00
"""
from alembic import op
import sqlalchemy as sa
import sqlmodel


revision = '0004_player_seats'
down_revision = '0003_event_language'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'seat',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('table_id', sa.Integer(), nullable=False),
        sa.Column('player', sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.Column('token', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column('revoked_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(['table_id'], ['game_table.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('token'),
    )
    op.create_index('ix_seat_table_id', 'seat', ['table_id'], unique=False)
    op.create_index('ix_seat_table_player_live', 'seat', ['table_id', 'player'], unique=True,
                    sqlite_where=sa.text('revoked_at IS NULL'), postgresql_where=sa.text('revoked_at IS NULL'))


def downgrade():
    op.drop_index('ix_seat_table_player_live', table_name='seat')
    op.drop_index('ix_seat_table_id', table_name='seat')
    op.drop_table('seat')
