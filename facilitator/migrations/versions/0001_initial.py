"""initial schema: packs, events, tables, move log, settings

Revision ID: 0001
Revises: 
Create Date: 2026-11-29 12:41:59.699797
"""
from alembic import op
import sqlalchemy as sa
import sqlmodel


revision = '0001'
down_revision = None
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('content_pack',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('key', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('title', sqlmodel.sql.sqltypes.AutoString(length=300), nullable=False),
    sa.Column('data', sa.Text(), nullable=False),
    sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('key', 'version')
    )
    with op.batch_alter_table('content_pack', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_content_pack_key'), ['key'], unique=False)

    op.create_table('setting',
    sa.Column('key', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
    sa.Column('value', sa.Text(), nullable=False),
    sa.PrimaryKeyConstraint('key')
    )
    op.create_table('event',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
    sa.Column('date', sqlmodel.sql.sqltypes.AutoString(length=10), nullable=True),
    sa.Column('pack_id', sa.Integer(), nullable=True),
    sa.Column('announce_step', sa.Integer(), nullable=False),
    sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['pack_id'], ['content_pack.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_table('game_table',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('event_id', sa.Integer(), nullable=True),
    sa.Column('name', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
    sa.Column('host_name', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=True),
    sa.Column('pack_id', sa.Integer(), nullable=False),
    sa.Column('players', sa.Text(), nullable=True),
    sa.Column('timer_seconds', sa.Integer(), nullable=True),
    sa.Column('deck_seed', sa.Integer(), nullable=False),
    sa.Column('token', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True),
    sa.Column('pin', sqlmodel.sql.sqltypes.AutoString(length=12), nullable=True),
    sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['event_id'], ['event.id'], ),
    sa.ForeignKeyConstraint(['pack_id'], ['content_pack.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('pin'),
    sa.UniqueConstraint('token')
    )
    with op.batch_alter_table('game_table', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_game_table_event_id'), ['event_id'], unique=False)

    op.create_table('move',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('table_id', sa.Integer(), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('kind', sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False),
    sa.Column('data', sa.Text(), nullable=True),
    sa.Column('undoes', sa.Integer(), nullable=True),
    sa.Column('author', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=True),
    sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['table_id'], ['game_table.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('table_id', 'seq')
    )
    with op.batch_alter_table('move', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_move_table_id'), ['table_id'], unique=False)



def downgrade():
    with op.batch_alter_table('move', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_move_table_id'))

    op.drop_table('move')
    with op.batch_alter_table('game_table', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_game_table_event_id'))

    op.drop_table('game_table')
    op.drop_table('event')
    op.drop_table('setting')
    with op.batch_alter_table('content_pack', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_content_pack_key'))

    op.drop_table('content_pack')
