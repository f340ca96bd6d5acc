"""Tests of the protocol workbooks and printed sheets (facilitator.reports)."""
