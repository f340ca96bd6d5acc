"""The screens' Jinja environment: each template compiled once per language, its fixed texts
translated when it is compiled rather than each time a screen is drawn.

Why: a host's turn screen says some 180 texts through ``_()``; each was a call from the
template, a look-up of the language and of its catalog on every tap, the same answer every
time. Here a template is kept compiled per language (the template cache is keyed by the
language as well as the name) and ``_("a fixed text")`` is put in as its translation when the
template is compiled; ``_("… {n} …", n=value)`` becomes the translated text's ``format`` with
the same values, so a screen reads exactly as before. A template that binds ``_`` itself (a
loop variable, a macro's argument, a ``set``) is compiled as written.

Two of Jinja's steps are taken the short way where the answer is known: an attribute of a plain
``dict`` (a view model's row: ``p.name``) is its item, without first failing to find an
attribute of that name; a call of a plain function (not marked to take the context) is made
without first looking for Jinja's marks on it. Both give what Jinja gives.

The catalogs are read once per process; when the registered games change (``registry.
on_change``: a game's catalogs come or go) every compiled template is dropped with them.
"""

import weakref
from collections import ChainMap
from types import BuiltinFunctionType, FunctionType, MethodType

from flask.templating import Environment as FlaskEnvironment
from jinja2 import Template as JinjaTemplate
from jinja2 import nodes
from jinja2.runtime import Context as JinjaContext
from jinja2.runtime import new_context
from jinja2.utils import internalcode
from jinja2.visitor import NodeTransformer

from facilitator import i18n
from facilitator.rules import registry

_environments = weakref.WeakSet()


#: what ``getattr`` finds on a plain dict: its class's attributes (an instance has none of its own)
_DICT_ATTRIBUTES = frozenset(dir(dict))


class Context(JinjaContext):
    """Jinja's context, calling a plain function at once (see above), its globals' names read
    from the maps of their ``ChainMap`` at once rather than through it one by one."""

    def __init__(self, environment, parent, name, blocks, globals=None):
        chained = isinstance(globals, ChainMap)
        super().__init__(environment, parent, name, blocks, None if chained else globals)
        if chained:
            self.globals_keys = set().union(*globals.maps)

    @internalcode
    def call(__self, __obj, *args, **kwargs):  # noqa: N805 (Jinja's own signature)
        kind = type(__obj)
        if kind is MethodType:
            function = __obj.__func__
            plain = type(function) is FunctionType and "jinja_pass_arg" not in function.__dict__
        else:
            plain = kind is BuiltinFunctionType or (kind is FunctionType and "jinja_pass_arg" not in __obj.__dict__)
        if not plain:
            return super().call(__obj, *args, **kwargs)
        kwargs.pop("_block_vars", None)
        kwargs.pop("_loop_vars", None)
        try:
            return __obj(*args, **kwargs)
        except StopIteration:
            return __self.environment.undefined("value was undefined because a callable raised a StopIteration exception")


class Template(JinjaTemplate):
    """Jinja's template, with two of its steps done on the maps of its globals' ``ChainMap``
    rather than through the ``ChainMap`` one name at a time (some 70 names, on every page):
    a page's context starts as its globals with the page's values over them, copied map by
    map; and its macros are imported (``{% from … import … %}``) after asking whether the
    importing page's globals hold a name this template's do not (then Jinja draws the module
    anew for that page), asked of the maps. The answers are the same."""

    def new_context(self, vars=None, shared=False, locals=None):
        if shared or not isinstance(self.globals, ChainMap):
            return super().new_context(vars, shared, locals)
        parent = {}
        for values in reversed(self.globals.maps):  # the first map's names over the later ones'
            parent.update(values)
        parent.update(vars or ())
        return new_context(self.environment, self.name, self.blocks, parent, True, self.globals, locals)

    @internalcode
    def _get_default_module(self, ctx=None):
        if ctx is not None:
            maps = self.globals.maps if isinstance(self.globals, ChainMap) else (self.globals,)
            if not ctx.globals_keys.difference(*maps):
                ctx = None  # nothing new: the module kept for every page
        return super()._get_default_module(ctx)


class Environment(FlaskEnvironment):
    """Flask's environment, with templates compiled and cached per language (see above)."""

    context_class = Context
    template_class = Template

    def getattr(self, obj, attribute):
        if type(obj) is dict and attribute not in _DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except KeyError:
                return self.undefined(obj=obj, name=attribute)
        return super().getattr(obj, attribute)

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


# ----- what every page says the same way, worked out once ---------------------------------
#: the most entries one of the caches below keeps (then it starts again)
KEPT = 10_000
_move_names = {}
_drawn = {}


def once(macro, *args, **kwargs):
    """``{{ once(a_macro, its, arguments) }}``: what the macro draws, drawn once per language
    and arguments and kept (a turn screen draws the same skill steppers and the same players'
    figures on every tap). Only for a macro whose output depends on its arguments and the
    language alone: never on the request, the session (no form token) or the page's context.
    The arguments are texts, numbers, None, and lists and dicts of them (anything else: the
    macro is drawn each time). A macro is known by its compiled code (one per template and
    language)."""
    try:
        key = (macro._func.__code__, i18n.get_locale(), _frozen(args), _frozen(kwargs))
        drawn = _drawn.get(key)
    except (AttributeError, TypeError):  # not a macro, or an argument that is no plain value
        return macro(*args, **kwargs)
    if drawn is None:
        drawn = macro(*args, **kwargs)
        if len(_drawn) >= KEPT:
            _drawn.clear()
        _drawn[key] = drawn
    return drawn


def move_names(ruleset):
    """``{move type: its name}`` in the current language for a page of ``ruleset``'s game (the
    tablet's outbox names a waiting move by it), worked out once per game and language. Read
    it, never change it."""
    key = (ruleset, i18n.get_locale())
    names = _move_names.get(key)
    if names is None:
        from facilitator.web.games import move_names as names_of
        names = _move_names[key] = names_of(ruleset)
    return names


def csrf_token_of(app):
    """The pages' ``csrf_token()``: Flask-WTF's ``generate_csrf``, the signed token kept per
    session token while tokens never expire (``WTF_CSRF_TIME_LIMIT`` None, as the app sets it:
    a tablet may sit idle for hours). Any token signed for a session's token is as good as a
    fresh one then (what the check compares is the session's token, and the signature), so
    a page names the one signed before instead of signing it again on every page. With a time
    limit, each page signs its own, as Flask-WTF does."""
    from flask import g, session
    from flask_wtf.csrf import generate_csrf
    signed = {}

    def csrf_token():
        config = app.config
        if (config["WTF_CSRF_TIME_LIMIT"] is not None or config["WTF_CSRF_FIELD_NAME"] != "csrf_token"
                or "csrf_token" in g or "csrf_token" not in session):
            return generate_csrf()
        key = (config.get("WTF_CSRF_SECRET_KEY") or app.secret_key, session["csrf_token"])
        token = signed.get(key)
        if token is None:
            if len(signed) >= KEPT:
                signed.clear()
            token = signed[key] = generate_csrf()
        else:
            g.csrf_token = token  # what ``generate_csrf`` answers for the rest of the request
        return token
    return csrf_token


def page_messages(with_categories=False, category_filter=()):
    """The pages' ``get_flashed_messages`` (Flask's, the same arguments and answer): the
    confirmation of the move the page's address names (``table.confirm``, put in ``g``: drawn
    from the table's position, never carried in the session) first, then the session's."""
    from flask import g, get_flashed_messages
    messages = [*g.get("confirmed", ()), *get_flashed_messages(with_categories=True)]
    if category_filter:
        messages = [m for m in messages if m[0] in category_filter]
    return messages if with_categories else [text for _category, text in messages]


_SCALARS = frozenset({int, float, bool, type(None)})


def _frozen(value):
    """A plain value as a key, each kind apart (``1``, ``1.0`` and ``True`` are drawn apart):
    a text as it is, a number or None with its kind, lists, tuples and dicts as tuples of their
    frozen items in their order; TypeError for anything else."""
    kind = type(value)
    if kind is str:
        return value
    if kind in _SCALARS:
        return kind, value
    if kind is dict:
        return (dict, tuple((k, _frozen(v)) for k, v in value.items()))
    if kind is list or kind is tuple:
        return (kind, tuple(_frozen(v) for v in value))
    raise TypeError(f"not a plain value: {kind.__name__}")


@registry.on_change
def _forget_compiled():
    for environment in list(_environments):
        if environment.cache is not None:
            environment.cache.clear()
    _move_names.clear()
    _drawn.clear()


__all__ = ["Environment", "once", "page_messages"]
