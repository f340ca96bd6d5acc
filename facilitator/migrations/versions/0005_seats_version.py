"""a table's seats version: what a move's answer needs to know of the players' links

``game_table.seats_version`` counts the seats of a table revoked (a seat made needs no count),
so a process keeps the links it read by it and a move's answer reads no seats (issue 19).
Tables of before start at 0.

Revision ID: 0005_seats_version
Revises: 0004_player_seats
Create Date: 2026-12-02 12:40:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0005_seats_version'
down_revision = '0004_player_seats'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('game_table', schema=None) as batch_op:
        batch_op.add_column(sa.Column('seats_version', sa.Integer(), nullable=False, server_default='0'))


def downgrade():
    with op.batch_alter_table('game_table', schema=None) as batch_op:
        batch_op.drop_column('seats_version')
