"""Words in the player's language: message ids with parameters, the catalogs, the language.

Owns: ``Msg`` (a message id with its parameters, which reads as English wherever it is used
as a ``str`` and crosses the wire as a small map), ``plural_msg`` and ``N_`` (markers that the
extractor finds), the gettext catalogs under ``core/locale`` (compiled ``.mo`` files are
committed, so the runtime needs only the standard library's ``gettext``), the choice of a
language (``--lang``, then ``LC_ALL``/``LC_MESSAGES``/``LANG``) and ``translate``.

The design: rules plugins, the narration and the host speak in message ids whose text is the
English sentence itself (``Msg("{who} plays {card}", who="Eva", card="R7")``). The host sends
the id and the parameters next to the English text; each client translates them into its own
player's language, so one host serves a Czech and a Catalan player at the same table and never
learns which language either reads. A missing translation falls back to English, never to an
id, because the id *is* the English text.

Must not know about: any particular game, sockets, terminals.
"""

from __future__ import annotations

import gettext
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

#: The gettext domain of every catalog.
DOMAIN = "cardparty"
#: Where the catalogs live: ``<lang>/LC_MESSAGES/cardparty.po`` and ``.mo``.
LOCALE_DIR = Path(__file__).with_name("locale")
#: English is the source language; the others have a catalog each.
LANGUAGES = ("en", "cs", "ca")
DEFAULT = "en"

# Bounds on what a map from the wire may hold (a hostile host must not cost the client much).
_MAX_ID = 400
_MAX_PARAMS = 12
_MAX_VALUE = 300
_MAX_DEPTH = 3



def N_(text: str) -> str:  # noqa: N802 -- the conventional gettext marker name
    """Marks ``text`` for the extractor and returns it unchanged: a word that is translated
    where it is shown (a counter's name, a colour), not where it is defined."""
    return text


class Msg(str):
    """A message id and its parameters; as a ``str`` it is the English sentence.

    ``Msg("{who} draws a card", who="Eva")`` equals ``"Eva draws a card"`` wherever it is
    compared or printed as text, so code and tests that read English keep working; the id and
    parameters travel with it so that each client can say it in its own language."""

    id: str
    params: dict[str, Any]
    plural: str | None
    n: int | None

    def __new__(cls, id: str, /, **params: Any) -> Msg:  # noqa: A002 -- the gettext word
        return cls._make(id, None, None, params)

    @classmethod
    def _make(cls, id: str, plural: str | None, n: int | None,  # noqa: A002
              params: dict[str, Any]) -> Msg:
        text = plural if plural is not None and n != 1 else id
        self = str.__new__(cls, _format(text, params, None))
        self.id = id
        self.params = params
        self.plural = plural
        self.n = n
        return self

    def __reduce__(self) -> Any:
        return (_rebuild, (self.id, self.plural, self.n, self.params))

    def to_wire(self) -> dict[str, Any]:
        """The msgpack-ready map: ``id``, ``p`` (parameters, nested messages as maps), and
        ``pl``/``n`` for a plural.

        The host sends the same few hundred labels ("play {card}" with R7) in every view, so
        the map of a message whose parameters are plain strings and numbers is kept and the
        same map returned for an equal message: read it, never change it."""
        params = self.params
        key: tuple[Any, ...] | None = (self.id, self.plural, self.n, *params.items())
        for v in params.values():
            if type(v) not in _PLAIN:
                key = None
                break
        if key is not None:
            found = _wires.get(key)
            if found is not None:
                return found
        out: dict[str, Any] = {"id": self.id,
                               "p": {k: v.to_wire() if isinstance(v, Msg) else _plain(v)
                                     for k, v in params.items()}}
        if self.plural is not None:
            out["pl"] = self.plural
            out["n"] = self.n
        if key is not None:
            if len(_wires) >= _MAX_WIRES:
                _wires.clear()
            _wires[key] = out
        return out


#: Parameter types whose messages' wire maps are kept (``Msg.to_wire``): exact types, so a
#: nested message (a ``str`` too) is never mistaken for its English text, nor 1.0 for 1.
_PLAIN = frozenset({str, int})
_wires: dict[tuple[Any, ...], dict[str, Any]] = {}
_MAX_WIRES = 4096


def _rebuild(id: str, plural: str | None, n: int | None,  # noqa: A002
             params: dict[str, Any]) -> Msg:
    return Msg._make(id, plural, n, params)


def plural_msg(singular: str, plural: str, n: int, /, **params: Any) -> Msg:
    """A message whose words depend on the number ``n`` (``{n}`` is passed to the text):
    Czech has three forms (1 karta, 2 karty, 5 karet), the catalog knows them."""
    return Msg._make(singular, plural, n, {"n": n, **params})


def _plain(value: Any) -> str | int | float:
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int | float):
        return value
    return str(value)


def _format(text: str, params: Mapping[str, Any], lang: str | None) -> str:
    """``text`` with its ``{name}`` fields filled; nested messages in ``lang`` (None:
    English). A field without its parameter is left as it is, never raised.

    Every move label and every event told is a message made on the host's loop, so a text
    is parsed once (``_template``) and then only joined."""
    if "{" not in text:
        return text
    out = []
    for literal, name in _template(text):
        out.append(literal)
        if name is not None:
            value = params.get(name)
            if value is None:
                out.append("{" + name + "}")
            elif lang is not None and isinstance(value, Msg):
                out.append(translate(value, lang))
            else:
                out.append(str(value))
    return "".join(out)


def _template(text: str) -> tuple[tuple[str, str | None], ...]:
    """``text`` as (literal, field name or None) pieces, the ``{{``/``}}`` escapes already
    undone in the literals; kept per text (bounded: texts come from catalogs and the wire)."""
    found = _templates.get(text)
    if found is None:
        pieces = []
        literal = []
        pos = 0
        for m in _FIELD.finditer(text):
            literal.append(text[pos:m.start()])
            pos = m.end()
            if m.group(1) is None:
                literal.append(m.group(0)[0])
            else:
                pieces.append(("".join(literal), m.group(1)))
                literal = []
        literal.append(text[pos:])
        pieces.append(("".join(literal), None))
        found = tuple(pieces)
        if len(_templates) >= _MAX_TEMPLATES:
            _templates.clear()
        _templates[text] = found
    return found


#: ``{name}`` fields and the ``{{``/``}}`` escapes; nothing else is read (no format specs, no
#: attribute access), so no text, even one from the wire, can make formatting costly.
_FIELD = re.compile(r"\{\{|\}\}|\{(\w+)\}")
_templates: dict[str, tuple[tuple[str, str | None], ...]] = {}
_MAX_TEMPLATES = 4096


# --- catalogs --------------------------------------------------------------------------------

_catalogs: dict[str, gettext.NullTranslations] = {}


def catalog(lang: str) -> gettext.NullTranslations:
    """The translations of ``lang``; English (and any language without a catalog) is the
    identity, so a missing word is shown in English."""
    found = _catalogs.get(lang)
    if found is None:
        found = gettext.translation(DOMAIN, LOCALE_DIR, [lang], fallback=True)
        _catalogs[lang] = found
    return found


_known: frozenset[str] | None = None


def known_ids() -> frozenset[str]:
    """Every message id some catalog has: the only ids a client accepts from the wire."""
    global _known
    if _known is None:
        ids: set[str] = set()
        for lang in LANGUAGES:
            cat = catalog(lang)
            ids.update(k if isinstance(k, str) else k[0]
                       for k in getattr(cat, "_catalog", {}) if k)
        _known = frozenset(ids)
    return _known


# --- the language ----------------------------------------------------------------------------

_current = DEFAULT


def choose_language(option: str | None = None,
                    environ: Mapping[str, str] | None = None) -> str:
    """The language to speak: ``option`` (``--lang``) when given, else the locale
    (``LC_ALL``, ``LC_MESSAGES``, ``LANG``, the first one set), else English. A language
    without a catalog is English. Raises ValueError for an ``option`` we do not have."""
    if option:
        if option not in LANGUAGES:
            raise ValueError(f"no language {option!r} (choose from {', '.join(LANGUAGES)})")
        return option
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if value:
            code = value.split(".")[0].split("_")[0].lower()
            return code if code in LANGUAGES else DEFAULT
    return DEFAULT


def set_language(lang: str) -> None:
    """Speak ``lang`` from now on in this process (the client's language)."""
    global _current
    _current = lang if lang in LANGUAGES else DEFAULT


#: How each language groups the thousands of a number (1,000; 1 000; 1.000).
THOUSANDS = {"en": ",", "cs": "\u00a0", "ca": "."}


def number(n: int, lang: str | None = None) -> str:
    """``n`` with its thousands grouped as ``lang`` (default: the current language)
    writes them."""
    return f"{n:,}".replace(",", THOUSANDS.get(lang or _current, ","))


def translate(value: Any, lang: str | None = None) -> str:
    """``value`` in ``lang`` (default: the current language): a ``Msg`` by its catalog, a
    plain string when it is a known id (a word like "red" or "clockwise" in a view), anything
    else as it is."""
    lang = _current if lang is None else lang
    if isinstance(value, Msg):
        cat = catalog(lang)
        if value.plural is not None:
            text = cat.ngettext(value.id, value.plural, value.n if value.n is not None else 0)
        else:
            text = cat.gettext(value.id)
        return _format(text, value.params, lang)
    if isinstance(value, str):
        if lang == DEFAULT or not value:
            return value
        key = (lang, value)
        said = _words.get(key)
        if said is None:
            said = _word(catalog(lang), value)
            if len(_words) >= _MAX_WORDS:
                _words.clear()
            _words[key] = said
        return said
    return str(value)


#: The view's words as said, per language: a screen shows the same few dozen words on every
#: redraw (bounded; a view's words come from the host).
_words: dict[tuple[str, str], str] = {}
_MAX_WORDS = 4096


def _word(cat: gettext.NullTranslations, value: str) -> str:
    said = cat.gettext(value)
    if said is value:
        # A view word with its number ("turns to stand: 2"): the word, then the number.
        m = _COUNTED.match(value)
        if m is not None:
            return cat.gettext(m.group(1)) + m.group(2)
    return said


_COUNTED = re.compile(r"^(.*?\D)(:? \d+)$")


def _(text: str) -> str:
    """A fixed text of the client in the current language."""
    return catalog(_current).gettext(text) if _current != DEFAULT else text


def ngettext(singular: str, plural: str, n: int) -> str:
    return catalog(_current).ngettext(singular, plural, n)


def from_wire(data: Any, depth: int = 0) -> Msg | None:
    """A message from the wire, or None when it is not one we know (an unknown id, too
    big, a wrong shape): the caller then shows the English text sent next to it. Only ids of
    our catalogs are accepted, so a host cannot make a client format a text of its choice."""
    if not isinstance(data, dict) or depth > _MAX_DEPTH:
        return None
    mid, params, plural = data.get("id"), data.get("p", {}), data.get("pl")
    if not isinstance(mid, str) or len(mid) > _MAX_ID or mid not in known_ids():
        return None
    if not isinstance(params, dict) or len(params) > _MAX_PARAMS:
        return None
    clean: dict[str, Any] = {}
    for k, v in params.items():
        if not isinstance(k, str) or len(k) > 32:
            return None
        if isinstance(v, dict):
            inner = from_wire(v, depth + 1)
            if inner is None:
                # A word we have no catalog entry for (a third-party game's move kind) is
                # shown as it is, never formatted.
                word = v.get("id")
                if not isinstance(word, str) or v.get("p") or v.get("pl") is not None:
                    return None
                clean[k] = word[:_MAX_VALUE]
                continue
            clean[k] = inner
        elif isinstance(v, bool) or not isinstance(v, str | int | float):
            return None
        elif isinstance(v, str):
            clean[k] = v[:_MAX_VALUE]
        else:
            clean[k] = v
    if plural is not None:
        n = data.get("n")
        if not isinstance(plural, str) or len(plural) > _MAX_ID or not isinstance(n, int):
            return None
        clean["n"] = n
        return Msg._make(mid, plural, n, clean)
    return Msg._make(mid, None, None, clean)


def shown(text: Any, wire: Any, lang: str | None = None) -> str:
    """What the client shows for a text sent as English ``text`` plus ``wire`` (a message
    map or nothing): the message in ``lang`` when we know its id, else the text itself."""
    m = from_wire(wire) if wire is not None else None
    if m is not None:
        return translate(m, lang)
    return translate(text, lang) if isinstance(text, str) else ""
