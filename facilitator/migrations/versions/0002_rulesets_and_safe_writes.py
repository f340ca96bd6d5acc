"""rulesets, compare-and-set writes, kept standings, organizer sessions, shared throttle

Packs, events and tables name their ruleset (several games in one database); a pack's key is
unique per ruleset. A table keeps its log's last sequence number (``seq``) and the revision of
its setup (``rev``) for compare-and-set writes, and its standing, status, move count and last
move time so that pages listing many tables never replay them. A move may carry the client id
a tablet queued it under. Organizer sessions are stored (sign-out ends them) and wrong PINs and
passwords are counted in the database (shared by every server process).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30 22:30:00
"""
from alembic import op
import sqlalchemy as sa
import sqlmodel


revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None

LYCEUM = "lyceum-16-25"
#: names an unnamed constraint reflected from SQLite, so that batch mode can drop it
NAMING = {"uq": "uq_%(table_name)s_%(column_0_name)s"}


def _old_pack_unique():
    return "uq_content_pack_key" if op.get_bind().dialect.name == "sqlite" else "content_pack_key_version_key"


def upgrade():
    with op.batch_alter_table('content_pack', schema=None, naming_convention=NAMING) as batch_op:
        batch_op.add_column(sa.Column('ruleset', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False,
                                      server_default=LYCEUM))
        batch_op.drop_constraint(_old_pack_unique(), type_='unique')
        batch_op.create_unique_constraint('content_pack_ruleset_key_version_key', ['ruleset', 'key', 'version'])

    with op.batch_alter_table('event', schema=None) as batch_op:
        batch_op.add_column(sa.Column('ruleset', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False,
                                      server_default=LYCEUM))
        batch_op.add_column(sa.Column('version', sa.Integer(), nullable=False, server_default='0'))

    with op.batch_alter_table('game_table', schema=None) as batch_op:
        batch_op.add_column(sa.Column('ruleset', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False,
                                      server_default=LYCEUM))
        batch_op.add_column(sa.Column('seq', sa.Integer(), nullable=False, server_default='0'))
        batch_op.add_column(sa.Column('rev', sa.Integer(), nullable=False, server_default='0'))
        batch_op.add_column(sa.Column('status', sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False,
                                      server_default='setup'))
        batch_op.add_column(sa.Column('standing', sa.Text(), nullable=True))
        batch_op.add_column(sa.Column('move_count', sa.Integer(), nullable=False, server_default='0'))
        batch_op.add_column(sa.Column('last_move_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True))
        batch_op.add_column(sa.Column('problem', sa.Text(), nullable=True))

    with op.batch_alter_table('move', schema=None) as batch_op:
        batch_op.add_column(sa.Column('client_id', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True))
        batch_op.create_unique_constraint('move_table_id_client_id_key', ['table_id', 'client_id'])

    # tables of an earlier version: their head is their log's last row; a seated table's
    # standing is left empty and worked out by the app the first time it is listed
    op.execute("UPDATE game_table SET seq = COALESCE((SELECT MAX(move.seq) FROM move "
               "WHERE move.table_id = game_table.id), 0)")
    op.execute("UPDATE game_table SET move_count = (SELECT COUNT(*) FROM move m WHERE m.table_id = game_table.id "
               "AND m.kind = 'move' AND NOT EXISTS (SELECT 1 FROM move u WHERE u.table_id = m.table_id "
               "AND u.undoes = m.seq))")
    op.execute("UPDATE game_table SET status = 'playing' WHERE players IS NOT NULL")

    op.create_table('organizer_session',
    sa.Column('id', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_table('login_failure',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('gate', sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
    sa.Column('client', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
    sa.Column('at', sa.Float(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index('ix_login_failure_gate_client', 'login_failure', ['gate', 'client'], unique=False)


def downgrade():
    op.drop_index('ix_login_failure_gate_client', table_name='login_failure')
    op.drop_table('login_failure')
    op.drop_table('organizer_session')
    with op.batch_alter_table('move', schema=None) as batch_op:
        batch_op.drop_constraint('move_table_id_client_id_key', type_='unique')
        batch_op.drop_column('client_id')
    with op.batch_alter_table('game_table', schema=None) as batch_op:
        for column in ('problem', 'last_move_at', 'move_count', 'standing', 'status', 'rev', 'seq', 'ruleset'):
            batch_op.drop_column(column)
    with op.batch_alter_table('event', schema=None) as batch_op:
        batch_op.drop_column('version')
        batch_op.drop_column('ruleset')
    with op.batch_alter_table('content_pack', schema=None) as batch_op:
        batch_op.drop_constraint('content_pack_ruleset_key_version_key', type_='unique')
        batch_op.create_unique_constraint('content_pack_key_version_key', ['key', 'version'])
        batch_op.drop_column('ruleset')
