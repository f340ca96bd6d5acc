"""Every refusal of the engine can be translated: ``_illegal(rule, code, template, **params)``,
``SetupError(path, code, template, **params)`` and ``MalformedError(path, template, **params)``
are called with a literal English template (the positions the translation test extracts),
each placeholder filled by a keyword of the call, and an illegal move's template starts with
its rule: ``P1``–``P9`` or a RULES.md section ``§<n>[.<n>]`` (``§6.<n>``: decision n)."""

import ast
import re
import string
from pathlib import Path

import pytest

import facilitator.rules.alterego as engine

SOURCES = sorted(Path(engine.__file__).parent.glob("*.py"))
TEMPLATE_ARG = {"_illegal": 2, "SetupError": 2, "MalformedError": 1}
RULE = re.compile(r"(P[1-9]|§[1-7](\.\d+)?)\Z")
CODE = re.compile(r"[a-z][a-z0-9_]*\Z")


def calls():
    for path in SOURCES:
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                if name in TEMPLATE_ARG:
                    yield f"{path.name}:{node.lineno}", name, node


CALLS = list(calls())


def test_the_engine_has_refusals_to_check():
    kinds = {name for _, name, _ in CALLS}
    assert kinds == set(TEMPLATE_ARG) and len(CALLS) > 100


@pytest.mark.parametrize("where, name, node", CALLS, ids=[c[0] for c in CALLS])
def test_a_literal_template_with_every_placeholder_given(where, name, node):
    index = TEMPLATE_ARG[name]
    assert len(node.args) > index, where
    template = node.args[index]
    assert isinstance(template, ast.Constant) and isinstance(template.value, str), where
    fields = {f for _, f, _, _ in string.Formatter().parse(template.value) if f}
    given = {k.arg for k in node.keywords}
    assert None in given or fields <= given, (where, fields - given)
    if name == "_illegal":
        rule, code = node.args[0], node.args[1]
        assert isinstance(rule, ast.Constant) and RULE.match(rule.value), where
        assert isinstance(code, ast.Constant) and CODE.match(code.value), where
        assert template.value.startswith(rule.value + ": "), where
    if name == "SetupError":
        assert isinstance(node.args[1], ast.Constant) and CODE.match(node.args[1].value), where


def test_each_code_means_one_thing():
    """A code names one refusal: where it appears twice, the rule is the same (``no_card``
    is the exception: the same refusal under §3.2, §3.4, §1.1 and §1.2)."""
    rules = {}
    for where, name, node in CALLS:
        if name == "_illegal":
            rules.setdefault(node.args[1].value, set()).add(node.args[0].value)
    assert {c: r for c, r in rules.items() if len(r) > 1} == {
        "no_card": {"§3.2", "§3.4", "§1.1", "§1.2"}, "wrong_step": {"§3.1", "§3.2", "§3.5"}}
