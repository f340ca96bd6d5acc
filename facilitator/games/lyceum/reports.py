"""«16/25»'s printed outputs in one place, as ``GamePackage.reports`` names them: one table's
protocol (workbook and PDF) and the event's (workbook, results, certificates, blank protocol)."""

from facilitator.games.lyceum.pdf import (blank_protocol_pdf, certificates_pdf, event_results_pdf,  # noqa: F401
                                          render_protocol_pdf_from_record, table_protocol_pdf)
from facilitator.games.lyceum.workbook import event_workbook_xlsx, table_protocol_xlsx  # noqa: F401
