"""A small JSON Schema (2020-12) validator for the API's OpenAPI document: the keywords the
document uses, each checked; a keyword it does not know fails the check (so no part of a schema
is silently ignored). When the ``jsonschema`` package is installed, the document is also checked
by it (``check_document``)."""

import re

#: the keywords ``errors`` checks, and those that only describe
CHECKED = {"$ref", "type", "const", "enum", "properties", "required", "additionalProperties", "items", "minItems",
           "maxItems", "minLength", "maxLength", "pattern", "minimum", "maximum", "anyOf", "oneOf", "allOf",
           "maxProperties", "propertyNames", "not"}
DESCRIBING = {"description", "title"}
_TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}


def _is(value, kind):
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, _TYPES[kind])


def resolve(document, ref):
    node = document
    for part in ref.removeprefix("#/").split("/"):
        node = node[part]
    return node


def errors(document, schema, value, path="$"):
    """Every way ``value`` breaks ``schema`` (``$ref`` resolved in ``document``), as
    ``path: why`` lines; an empty list when it fits."""
    out = []
    unknown = set(schema) - CHECKED - DESCRIBING
    if unknown:
        return [f"{path}: the schema uses keywords this check does not know: {sorted(unknown)}"]
    if "$ref" in schema:
        out += errors(document, resolve(document, schema["$ref"]), value, path)
    if "type" in schema:
        kinds = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(_is(value, k) for k in kinds):
            return out + [f"{path}: {value!r:.60} is not of type {kinds}"]
    if "const" in schema and not (value == schema["const"] and type(value) is type(schema["const"])):
        out.append(f"{path}: {value!r:.60} is not {schema['const']!r}")
    if "enum" in schema and not any(value == e and type(value) is type(e) for e in schema["enum"]):
        out.append(f"{path}: {value!r:.60} is not one of {schema['enum']}")
    if isinstance(value, dict):
        props = schema.get("properties", {})
        out += [f"{path}: {k} is missing" for k in schema.get("required", ()) if k not in value]
        for key, item in value.items():
            if key in props:
                out += errors(document, props[key], item, f"{path}.{key}")
            elif schema.get("additionalProperties") is False:
                out.append(f"{path}: {key} is not allowed")
            elif isinstance(schema.get("additionalProperties"), dict):
                out += errors(document, schema["additionalProperties"], item, f"{path}.{key}")
            if "propertyNames" in schema:
                out += errors(document, schema["propertyNames"], key, f"{path}.{key}(name)")
        if len(value) > schema.get("maxProperties", len(value)):
            out.append(f"{path}: more than {schema['maxProperties']} keys")
    if isinstance(value, list):
        if "items" in schema:
            for i, item in enumerate(value):
                out += errors(document, schema["items"], item, f"{path}[{i}]")
        if len(value) < schema.get("minItems", 0) or len(value) > schema.get("maxItems", len(value)):
            out.append(f"{path}: {len(value)} items, not within its bounds")
    if isinstance(value, str):
        if len(value) < schema.get("minLength", 0) or len(value) > schema.get("maxLength", len(value)):
            out.append(f"{path}: {len(value)} characters, not within its bounds")
        if "pattern" in schema and not re.search(schema["pattern"], value):
            out.append(f"{path}: {value!r:.60} does not match {schema['pattern']}")
    if _is(value, "number"):
        if value < schema.get("minimum", value) or value > schema.get("maximum", value):
            out.append(f"{path}: {value} is out of range")
    if "not" in schema and not errors(document, schema["not"], value, path):
        out.append(f"{path}: {value!r:.60} fits what is ruled out: {schema['not']}")
    if "allOf" in schema:
        for sub in schema["allOf"]:
            out += errors(document, sub, value, path)
    if "anyOf" in schema:
        found = [errors(document, sub, value, path) for sub in schema["anyOf"]]
        if all(found):
            out.append(f"{path}: fits none of anyOf: " + " | ".join(f[0] for f in found))
    if "oneOf" in schema:
        found = [errors(document, sub, value, path) for sub in schema["oneOf"]]
        fits = sum(1 for f in found if not f)
        if fits != 1:
            out.append(f"{path}: fits {fits} of oneOf, not exactly one: " + " | ".join(f[0] for f in found if f))
    return out


def schema_errors(document, name, value):
    return errors(document, {"$ref": f"#/components/schemas/{name}"}, value)


def check_document(document):
    """Every schema of the document uses only the keywords ``errors`` checks; and, when the
    ``jsonschema`` package is there, each is a valid JSON Schema (2020-12)."""
    bad = []

    def walk(node, where, is_schema):
        if isinstance(node, dict):
            if is_schema:
                unknown = set(node) - CHECKED - DESCRIBING
                if unknown:
                    bad.append(f"{where}: {sorted(unknown)}")
                for key in ("items", "additionalProperties", "propertyNames", "not"):
                    if isinstance(node.get(key), dict):
                        walk(node[key], f"{where}.{key}", True)
                for key in ("anyOf", "oneOf", "allOf"):
                    for i, sub in enumerate(node.get(key, ())):
                        walk(sub, f"{where}.{key}[{i}]", True)
                for key, sub in node.get("properties", {}).items():
                    walk(sub, f"{where}.properties.{key}", True)
    for name, schema in document["components"]["schemas"].items():
        walk(schema, name, True)
    try:
        import jsonschema
    except ImportError:
        return bad
    for name in document["components"]["schemas"]:
        jsonschema.Draft202012Validator.check_schema({"$ref": f"#/components/schemas/{name}",
                                                      "components": document["components"]})
    return bad
