"""an event's language

An event speaks one language on its projector, its access sheet, its certificates and in the
names of its new tables, chosen when it is created among its game's. Events of before keep NULL:
the app reads that as their game's first language (``i18n.event_locale``).

Revision ID: 0003_event_language
Revises: 0002
Create Date: 2026-12-04 10:00:00
"""
from alembic import op
import sqlalchemy as sa
import sqlmodel


revision = '0003_event_language'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('event', schema=None) as batch_op:
        batch_op.add_column(sa.Column('language', sqlmodel.sql.sqltypes.AutoString(length=8), nullable=True))


def downgrade():
    with op.batch_alter_table('event', schema=None) as batch_op:
        batch_op.drop_column('language')
