"""The screens' Jinja environment: each template compiled once per language, its fixed texts
translated when it is compiled rather than each time a screen is drawn.

Why: a host's turn screen says some 180 texts through ``_()``; each was a call from the
template, a look-up of the language and of its catalog on every tap, the same answer every
time. Here a template is kept compiled per language (the template cache is keyed by the
language as well as the name) and ``_("a fixed text")`` is put in as its translation when the
template is compiled; ``_("… {n} …", n=value)`` becomes the translated text's ``format`` with
the same values, so a screen reads exactly as before. A template that binds ``_`` itself (a
loop variable, a macro's argument, a ``set``) is compiled as written.

The catalogs are read once per process; when the registered games change (``registry.
on_change``: a game's catalogs come or go) every compiled template is dropped with them.
"""

import weakref

from flask.templating import Environment as FlaskEnvironment
from jinja2 import nodes
from jinja2.visitor import NodeTransformer

from facilitator import i18n
from facilitator.rules import registry

_environments = weakref.WeakSet()


class Environment(FlaskEnvironment):
    """Flask's environment, with templates compiled and cached per language (see above)."""

    def __init__(self, app, **options):
        super().__init__(app, **options)
        _environments.add(self)

    def _load_template(self, name, globals):
        if self.loader is None:
            raise TypeError("no loader for this environment specified")
        cache_key = (weakref.ref(self.loader), name, i18n.get_locale())
        if self.cache is not None:
            template = self.cache.get(cache_key)
            if template is not None and (not self.auto_reload or template.is_up_to_date):
                if globals:
                    template.globals.update(globals)
                return template
        template = self.loader.load(self, name, self.make_globals(globals))
        if self.cache is not None:
            self.cache[cache_key] = template
        return template

    def _parse(self, source, name, filename):
        tree = super()._parse(source, name, filename)
        if self.globals.get("_") is not i18n.gettext:
            return tree
        if any(n.name == "_" for n in tree.find_all(nodes.Name) if n.ctx != "load"):
            return tree  # ``_`` means something else in this template
        return _Translated(i18n.gettext).visit(tree)


class _Translated(NodeTransformer):
    """``_("text")`` -> the translation; ``_("text {n}", n=x)`` -> ``"translation {n}".format(n=x)``."""

    def __init__(self, gettext):
        self.gettext = gettext

    def visit_Call(self, node):
        node = self.generic_visit(node)
        if not (isinstance(node.node, nodes.Name) and node.node.name == "_" and node.node.ctx == "load"
                and len(node.args) == 1 and isinstance(node.args[0], nodes.Const)
                and isinstance(node.args[0].value, str) and node.dyn_args is None and node.dyn_kwargs is None):
            return node
        message, lineno = node.args[0].value, node.lineno
        if all(isinstance(k.value, nodes.Const) for k in node.kwargs):
            try:  # nothing varies: the whole text, filled, is known now
                text = self.gettext(message, **{k.key: k.value.value for k in node.kwargs})
            except (KeyError, IndexError, ValueError, AttributeError):
                return node  # a text that does not fill: left to fail as it did, when drawn
            return nodes.Const(text, lineno=lineno)
        text = self.gettext(message)
        fill = nodes.Getattr(nodes.Const(text, lineno=lineno), "format", "load", lineno=lineno)
        return nodes.Call(fill, [], node.kwargs, None, None, lineno=lineno)


@registry.on_change
def _forget_compiled():
    for environment in list(_environments):
        if environment.cache is not None:
            environment.cache.clear()


__all__ = ["Environment"]
