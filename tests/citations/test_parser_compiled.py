"""The compiled reader (``citations/domain/_cparser.c``) gives exactly what the
Python steps give, and the parser falls back to those steps without it.

Both paths read the labelled sets, slices of every pinned corpus file and
generated text, and must agree on every citation (spans, levels, instrument,
group, everything a ``Citation`` holds). Where the extension is not built
these tests are skipped, except under ``BELEGT_CITATIONS_COMPILED=1`` (CI),
where a missing extension fails them.
"""

from __future__ import annotations

import ctypes
import dataclasses
import importlib
import importlib.util
import os
import sys
import textwrap
import types
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citations.domain import parser_compiled
from citations.domain.citation import Citation, Lang
from citations.domain.instruments import REGISTRY, InstrumentInfo
from citations.domain.parser import _Parser, parse_citations
from citations.domain.parser_compiled import (
    ENV,
    MODULE,
    CompiledParserMissing,
    compiled_parser,
    parser_path,
)
from citations.domain.parser_input import _candidates
from citations.domain.parser_instrument import act_named_before
from citations.domain.parser_reference import parse_citations_reference
from citations.domain.patterns import _INSTRUMENT_FIRST
from tests.citations.fixtures import CORPUS_PRESENT, SKIP_REASON
from tests.citations.test_parser_fast_paths import (
    _LITERAL_TOKENS,
    _MENTION_TOKENS,
    _TAIL_TOKENS,
    _UNIT_ENDS,
    _UNIT_HEADS,
    _UNIT_PARTS,
    _corpus_slices,
    _labelled_texts,
    unit_texts,
)
from tests.citations.test_parser_properties import TOKENS

REQUIRED = os.environ.get(ENV, "").strip().lower() in parser_compiled._REQUIRED


def _compiled() -> ModuleType:
    try:
        module = compiled_parser()
    except CompiledParserMissing:
        module = None
    if module is None:
        if REQUIRED:
            pytest.fail(f"{ENV} is set but {MODULE} was not built")
        pytest.skip(f"{MODULE} not built (no C compiler at install time?)")
    return module


@pytest.fixture
def compiled() -> ModuleType:
    return _compiled()


def _python(text: str, default: InstrumentInfo | None = None) -> list[Citation]:
    return _Parser(text, default).run()


def _by_compiled(
    module: ModuleType, text: str, default: InstrumentInfo | None = None
) -> list[Citation]:
    return _Parser(text, default).run_compiled(module)


def _assert_same(
    module: ModuleType, text: str, default: InstrumentInfo | None = None
) -> list[Citation]:
    assert module.candidates(text) == _candidates(text), text
    found = _by_compiled(module, text, default)
    assert found == _python(text, default), text
    for c in found:
        assert text[c.start : c.end] == c.raw
    return found


# forms the Python steps read themselves (the reader hands them over), next
# to forms the reader reads, and chains that pass from one to the other
HANDOVER_TEXTS = [
    "Art. 6 Abs. 1 DSGVO und Erwägungsgrund 40; § 280 BGB.",
    "Artikel 5 dieser Verordnung und Erwägungsgrund 3 gilt. Die Verordnung "
    "(EU) 2016/679 regelt Artikel 6 dieser Verordnung und Anhang III.",
    "point (a) of Article 6(1) and Article 9(2) of the GDPR; Annex III point 5",
    "Nr. 2300 VV RVG, Anlage 1 zu § 2 Abs. 2 RVG und §§ 13, 14 RVG",
    "Paragraf 280 Absatz 1 BGB, section 87(1) no. 6 BetrVG and § 5 Abs. 2",
    "(Art. 7 Abs. 4 DSGVO, ErwG 43) sowie Art. 17 III 1 lit. b DSGVO",
    "§§ 167 Abs. 2 VwGO, 708 Nr. 11, 711 ZPO; Abs. 3 gilt. Absatz 2 Satz 1",
    "the second subparagraph of Article 5 and Article 5, first subparagraph",
    "Art. 229 § 34 EGBGB, §§ 1, 2 Abs. 2, 3, 10 SGB X und § 124 a VwGO",
    "&sect; 280 Abs.&nbsp;1 BGB <script>§ 1 BGB</script> Art. 6 DSGVO",
]


@pytest.mark.parametrize("text", HANDOVER_TEXTS)
def test_compiled_reader_equals_python_steps_where_it_hands_over(
    compiled: ModuleType, text: str
) -> None:
    assert parse_citations(text)  # every text holds citations
    _assert_same(compiled, text)


def test_compiled_reader_equals_python_steps_on_the_labelled_sets(
    compiled: ModuleType,
) -> None:
    texts = _labelled_texts()
    assert len(texts) > 300
    for text in texts:
        _assert_same(compiled, text)
    # one long text: later sentences see earlier acts and citations
    _assert_same(compiled, "\n".join(texts))
    _assert_same(compiled, " ".join(texts))


def test_compiled_reader_equals_python_steps_with_a_default_instrument(
    compiled: ModuleType,
) -> None:
    for text in _labelled_texts():
        _assert_same(compiled, text, REGISTRY[0])


@pytest.mark.corpus
def test_compiled_reader_equals_python_steps_on_slices_of_every_pinned_file(
    compiled: ModuleType,
) -> None:
    if not CORPUS_PRESENT:
        pytest.skip(SKIP_REASON)
    found = 0
    for text in _corpus_slices():
        found += len(_assert_same(compiled, text))
    assert found > 1_000


_POOL = sorted(
    set(TOKENS + _MENTION_TOKENS + _TAIL_TOKENS + _LITERAL_TOKENS + _UNIT_PARTS)
    | set(_UNIT_ENDS + _UNIT_HEADS)
    | {
        "Paragraf",
        "Section",
        "sections",
        "Anlage",
        "zu",
        "Nr. 2300",
        "VV",
        "no.",
        "Artt.",
        "paragraphs",
        "Absätze",
        "et seq.",
        "–",
        "Halbsatz",
        "1. Hs.",
        "Teil",
        "Buchstaben",
        "letters",
        "ii",
        "aa",
        "b)",
        "\n\n",
        "\xa0",
        "„",
        "’",
        "(12a)",
        "124 a",
        "²",
        "١٢",
        "1.2",
        "1,5",
        "12345",
        "XIV",
        "in Verbindung mit",
        "i. V. m.",
        "&",
        "/",
        "Aufenthaltsgesetzes",
        "XYZG",
        "SGB",
        "X",
        "VwGO",
        "Die",
    }
)


@settings(max_examples=500, deadline=None)
@given(
    st.lists(st.sampled_from(_POOL), max_size=40),
    st.sampled_from([" ", "", "\n"]),
    st.booleans(),
)
def test_compiled_reader_equals_python_steps_on_token_soup(
    tokens: list[str], sep: str, with_default: bool
) -> None:
    module = _compiled()
    _assert_same(module, sep.join(tokens), REGISTRY[0] if with_default else None)


@settings(max_examples=500, deadline=None)
@given(unit_texts(["", "DSGVO, ", "nach ", "(", "BGB ", "Art. 5 DSGVO; "]))
def test_compiled_reader_equals_python_steps_on_units_and_their_subdivisions(
    text: str,
) -> None:
    module = _compiled()
    _assert_same(module, text)
    _assert_same(module, text + " Abs. 2 gilt")  # a bare unit reads the last


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_compiled_reader_never_crashes_and_its_spans_point_at_their_text(
    text: str,
) -> None:
    module = _compiled()
    _assert_same(module, text)
    _assert_same(module, "§ 1 " + text + " Art. 2 Abs. 3")


def test_compiled_candidate_scan_finds_the_python_places_in_glued_literals(
    compiled: ModuleType,
) -> None:
    # every literal glued to every other, and the look-back places ("second
    # subparagraph", "Nr. 2300 VV"), at the edges of the text too
    for a in _LITERAL_TOKENS:
        for b in _LITERAL_TOKENS:
            for text in (a + b, a + " " + b, b + a + b):
                assert compiled.candidates(text) == _candidates(text), text


# -- which path runs --


@pytest.fixture
def extension_hidden(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The interpreter as where the extension was never built: its import
    fails (``sys.modules[name] = None``) and the loader forgets it had it."""
    monkeypatch.setitem(sys.modules, MODULE, None)
    monkeypatch.setattr(parser_compiled, "_loaded", [])
    monkeypatch.setattr(parser_compiled, "_unusable", [])
    yield


def test_without_the_extension_the_python_steps_give_the_same_citations(
    extension_hidden: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(ENV, raising=False)
    assert compiled_parser() is None
    assert parser_path() == "python"
    text = "\n".join(_labelled_texts())
    found = parse_citations(text)
    assert found == parse_citations_reference(text)
    assert len(found) > 400


def test_without_the_extension_a_required_compiled_path_is_an_error(
    extension_hidden: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV, "1")
    with pytest.raises(CompiledParserMissing, match="not built"):
        parse_citations("§ 280 BGB")


def test_the_python_steps_can_be_chosen_where_the_extension_exists(
    compiled: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV, "0")
    assert compiled_parser() is None
    calls: list[int] = []

    def counted(parser: object, places: list[int], i: int) -> int:
        calls.append(i)
        return len(places)

    monkeypatch.setattr(compiled, "advance", counted)
    assert parse_citations("§ 280 Abs. 1 BGB")[0].canonical == "de/bgb/sec/280/para/1"
    assert calls == []


def test_parse_citations_runs_the_compiled_reader_where_it_is_built(
    compiled: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What CI proves with BELEGT_CITATIONS_COMPILED=1: the extension was
    built, and parse_citations reads through it."""
    monkeypatch.delenv(ENV, raising=False)
    assert parser_path() == "compiled"
    advance = compiled.advance
    calls: list[int] = []

    def counted(parser: object, places: list[int], i: int) -> int:
        calls.append(i)
        return int(advance(parser, places, i))

    monkeypatch.setattr(compiled, "advance", counted)
    found = parse_citations("Art. 6 Abs. 1 lit. a DSGVO und § 280 BGB")
    assert [c.canonical for c in found] == [
        "eu/reg/2016/679/art/6/para/1/point/a",
        "de/bgb/sec/280",
    ]
    assert calls == [0]  # one call read both: nothing was handed over


def test_the_compiled_reader_hands_a_recital_to_the_python_steps(
    compiled: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    read_by_python: list[int] = []
    read_at = _Parser._read_at

    def spy(self: _Parser, start: int) -> None:
        read_by_python.append(start)
        read_at(self, start)

    monkeypatch.setattr(_Parser, "_read_at", spy)
    text = "§ 280 BGB; Erwägungsgrund 40 DSGVO; Art. 6 DSGVO und Anhang III"
    found = _by_compiled(compiled, text)
    assert [c.raw for c in found] == [
        "§ 280 BGB",
        "Erwägungsgrund 40 DSGVO",
        "Art. 6 DSGVO",
        "Anhang III",
    ]
    # the recital, and the article whose chain reaches the annex; not the §
    assert read_by_python == [text.index("Erw"), text.index("Art.")]
    read_by_python.clear()
    assert found == _python(text)


def test_required_environment_means_the_extension_is_in_use() -> None:
    """Fails (not skips) where CI requires the compiled path and the build
    silently left it out."""
    if not REQUIRED:
        pytest.skip(f"{ENV} is not set to require the compiled path")
    assert compiled_parser() is not None
    assert parser_path() == "compiled"


# -- one state per module object (PEP 489): interpreters do not share it --


def _fresh_instance() -> ModuleType:
    """A second module object of the extension, as another interpreter's
    import makes one: its own state, not configured."""
    spec = importlib.util.find_spec(MODULE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_each_module_object_keeps_its_own_configuration(compiled: ModuleType) -> None:
    other = _fresh_instance()
    assert other is not compiled
    text = "§§ 280, 281 BGB und Art. 6 DSGVO"
    with pytest.raises(RuntimeError, match="configure"):
        _by_compiled(other, text)
    # the other one configured with a class of its own (as a second
    # interpreter's import of citation.py makes one) ...
    fields = dataclasses.fields(Citation)
    Other = dataclasses.make_dataclass(
        "Other", [(f.name, f.type) for f in fields], slots=True, frozen=True
    )
    other.configure(
        Other, tuple(f.name for f in fields), act_named_before, _INSTRUMENT_FIRST
    )
    theirs = _by_compiled(other, text)
    assert [type(c) for c in theirs] == [Other] * 3
    # ... changes nothing here
    ours = _by_compiled(compiled, text)
    assert [type(c) for c in ours] == [Citation] * 3
    assert ours == _python(text)
    assert [c.raw for c in theirs] == [c.raw for c in ours]


def _subinterpreters() -> tuple[ModuleType, Callable[[object, str], object]]:
    """The low-level interpreters module and its function that runs code in
    one: _xxsubinterpreters.run_string (3.11, 3.12), _interpreters.exec
    (3.13)."""
    for name, run in (("_xxsubinterpreters", "run_string"), ("_interpreters", "exec")):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        return module, getattr(module, run)
    pytest.skip("no sub-interpreters module (_xxsubinterpreters, _interpreters)")


def test_a_sub_interpreter_reads_with_its_own_citation_class(
    compiled: ModuleType,
) -> None:
    """mod_wsgi runs each application in a sub-interpreter of one process:
    the import and configure() there must leave this interpreter's reader
    (its Citation class, its act look-up) as it was."""
    interpreters, run = _subinterpreters()
    text = "Art. 6 Abs. 1 lit. a DSGVO und §§ 280, 281 BGB; Abs. 2 gilt"
    before = parse_citations(text)
    assert all(type(c) is Citation for c in before)
    root = Path(__file__).resolve().parents[2]
    code = textwrap.dedent(
        f"""
        import sys
        sys.path.insert(0, {str(root)!r})
        from citations.domain.citation import Citation, Lang
        from citations.domain.parser import _Parser, parse_citations
        from citations.domain.parser_compiled import compiled_parser
        module = compiled_parser()
        assert module is not None, "no compiled reader in the sub-interpreter"
        found = _Parser({text!r}, None).run_compiled(module)
        assert found == _Parser({text!r}, None).run(), found
        assert found == parse_citations({text!r})
        assert all(type(c) is Citation for c in found), [type(c) for c in found]
        """
    )
    interp = interpreters.create()
    try:
        assert run(interp, code) is None
        after = parse_citations(text)
        assert all(type(c) is Citation for c in after), [type(c) for c in after]
        assert after == before
    finally:
        interpreters.destroy(interp)
    after = parse_citations(text)
    assert all(type(c) is Citation for c in after)
    assert after == before == _python(text)


# -- advance() and what its caller passes --


def test_advance_refuses_a_negative_index(compiled: ModuleType) -> None:
    text = "§ 280 BGB und Art. 6 DSGVO"
    places = compiled.candidates(text)
    for i in (-1, -2, -(10**9)):
        parser = _Parser(text, None)
        with pytest.raises(ValueError, match="negative"):
            compiled.advance(parser, places, i)
        assert parser.results == []
    # from 0 on, and past the end, as before
    parser = _Parser(text, None)
    assert compiled.advance(parser, places, 0) == len(places)
    assert parser.results == _python(text)
    assert (
        compiled.advance(_Parser(text, None), places, len(places) + 3)
        == len(places) + 3
    )


class _ChangesThePlaces(_Parser):
    """A parser whose act look-up changes the list of places advance() is
    reading (any Python code it calls could)."""

    places: list[object]

    def _instrument(
        self, pos: int
    ) -> tuple[InstrumentInfo | None, str, int, Lang | None] | None:
        self.places.clear()
        self.places.extend(["x", 10**30, -5])
        return super()._instrument(pos)


def test_advance_reads_the_places_as_they_were_when_called(
    compiled: ModuleType,
) -> None:
    text = "§ 280 BGB und § 281 BGB und § 282 BGB und § 283 BGB; Art. 6 DSGVO"
    expected = _python(text)
    places: list[object] = list(compiled.candidates(text))
    n = len(places)
    parser = _ChangesThePlaces(text, None)
    parser.places = places
    assert compiled.advance(parser, places, 0) == n
    assert parser.results == expected
    assert places == ["x", 10**30, -5]  # it was changed, and not read again
    # a tuple (what run_compiled passes) is read as it is
    parser = _ChangesThePlaces(text, None)
    parser.places = []
    assert compiled.advance(parser, tuple(compiled.candidates(text)), 0) == n
    assert parser.results == expected


def test_advance_takes_places_as_a_tuple_or_a_list_only(compiled: ModuleType) -> None:
    with pytest.raises(TypeError, match="places"):
        compiled.advance(_Parser("§ 1 BGB", None), iter([0]), 0)


# -- a build that is there but does not fit (citation.py changed since) --

_FIELDS = tuple(f.name for f in dataclasses.fields(Citation))


@pytest.mark.parametrize(
    "names",
    [
        ("begin", *_FIELDS[1:]),  # renamed
        (_FIELDS[1], _FIELDS[0], *_FIELDS[2:]),  # reordered
        _FIELDS[:-1],  # one fewer
        (*_FIELDS, "extra"),  # one more
        (*_FIELDS[:-1], 13),  # not a name
    ],
    ids=["renamed", "reordered", "fewer", "more", "not-a-name"],
)
def test_configure_refuses_fields_it_was_not_built_for(
    compiled: ModuleType, names: tuple[object, ...]
) -> None:
    with pytest.raises(ValueError, match="rebuild it"):
        compiled.configure(Citation, names, act_named_before, _INSTRUMENT_FIRST)
    # refused before anything was kept: it reads as before
    text = "§§ 280, 281 BGB und Art. 6 Abs. 1 DSGVO"
    assert _by_compiled(compiled, text) == _python(text)


def _citation_changed() -> type:
    """Citation as it would be after a change to citation.py that the built
    extension does not know: a field renamed."""
    renamed = [
        ("batch" if f.name == "group" else f.name, f.type)
        for f in dataclasses.fields(Citation)
    ]
    return dataclasses.make_dataclass("Citation", renamed, slots=True, frozen=True)


@pytest.fixture
def stale_build(
    compiled: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> Iterator[ModuleType]:
    """The built extension, loaded afresh by a process whose Citation has
    changed since it was built."""
    monkeypatch.setattr(parser_compiled, "Citation", _citation_changed())
    monkeypatch.setattr(parser_compiled, "_loaded", [])
    monkeypatch.setattr(parser_compiled, "_unusable", [])
    yield compiled


def _spied_advance(monkeypatch: pytest.MonkeyPatch, module: ModuleType) -> list[int]:
    calls: list[int] = []
    advance = module.advance

    def counted(parser: object, places: tuple[int, ...], i: int) -> int:
        calls.append(i)
        return int(advance(parser, places, i))

    monkeypatch.setattr(module, "advance", counted)
    return calls


def test_a_stale_build_falls_back_to_the_python_steps_with_one_warning(
    stale_build: ModuleType,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    monkeypatch.delenv(ENV, raising=False)
    calls = _spied_advance(monkeypatch, stale_build)
    text = "\n".join(_labelled_texts()[:40])
    with caplog.at_level("WARNING", logger=parser_compiled.__name__):
        assert compiled_parser() is None
        assert parser_path() == "python"
        for _ in range(3):
            assert parse_citations(text) == parse_citations_reference(text)
    assert calls == []
    warnings = [r for r in caplog.records if r.name == parser_compiled.__name__]
    assert len(warnings) == 1, [r.getMessage() for r in warnings]
    message = warnings[0].getMessage()
    assert "configure() refused it" in message
    assert "'batch'" in message
    assert "make install" in message


def test_a_stale_build_is_an_error_where_the_compiled_path_is_required(
    stale_build: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV, "1")
    for _ in range(2):  # at every call, not once
        with pytest.raises(CompiledParserMissing, match="configure\\(\\) refused"):
            parse_citations("§ 280 BGB")


class _BrokenModule(ModuleType):
    """An extension that loads but whose configure() fails its own way
    (an older build's checks, or none at all)."""

    def __init__(self, error: Exception | None) -> None:
        super().__init__(MODULE)
        self.error = error
        self.calls = 0
        if error is not None:
            self.configure = self._configure

    def _configure(self, *args: object) -> None:
        self.calls += 1
        assert self.error is not None
        raise self.error


@pytest.mark.parametrize(
    "error",
    [ValueError("Citation has 13 fields"), TypeError("bad argument"), None],
    ids=["ValueError", "TypeError", "no-configure"],
)
def test_a_module_that_cannot_be_configured_leaves_the_python_steps(
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    error: Exception | None,
) -> None:
    broken = _BrokenModule(error)
    monkeypatch.setitem(sys.modules, MODULE, broken)
    monkeypatch.setattr(parser_compiled, "_loaded", [])
    monkeypatch.setattr(parser_compiled, "_unusable", [])
    monkeypatch.delenv(ENV, raising=False)
    with caplog.at_level("WARNING", logger=parser_compiled.__name__):
        for _ in range(3):
            assert compiled_parser() is None
        assert parse_citations("§ 280 Abs. 1 BGB")[0].canonical == (
            "de/bgb/sec/280/para/1"
        )
    assert broken.calls == (0 if error is None else 1)  # tried once
    assert len(caplog.records) == 1
    monkeypatch.setenv(ENV, "1")
    with pytest.raises(CompiledParserMissing, match="configure"):
        compiled_parser()


def test_a_module_that_does_not_load_leaves_the_python_steps_with_a_warning(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def fails(name: str) -> ModuleType:
        raise ImportError(f"{name}: undefined symbol: PyFoo")

    monkeypatch.setattr(
        parser_compiled, "importlib", types.SimpleNamespace(import_module=fails)
    )
    monkeypatch.setattr(parser_compiled, "_loaded", [])
    monkeypatch.setattr(parser_compiled, "_unusable", [])
    monkeypatch.delenv(ENV, raising=False)
    with caplog.at_level("WARNING", logger=parser_compiled.__name__):
        assert compiled_parser() is None
        assert compiled_parser() is None
    assert len(caplog.records) == 1
    assert "undefined symbol" in caplog.records[0].getMessage()
    monkeypatch.setenv(ENV, "1")
    with pytest.raises(CompiledParserMissing, match="does not load"):
        compiled_parser()


# -- a str of 3.11 that is not ready yet (the deprecated wchar_t API) --


def _legacy_str(text: str) -> str:
    """``text`` as a legacy str, its canonical form not yet built, as a C
    extension using the deprecated wchar_t API (3.11 and older) makes it."""
    api = ctypes.pythonapi
    new = api.PyUnicode_FromUnicode
    new.restype, new.argtypes = ctypes.py_object, [ctypes.c_void_p, ctypes.c_ssize_t]
    as_wchar = api.PyUnicode_AsUnicode
    as_wchar.restype = ctypes.POINTER(ctypes.c_wchar)
    as_wchar.argtypes = [ctypes.py_object]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        legacy: str = new(None, len(text))
    buffer = as_wchar(legacy)
    for i, char in enumerate(text):
        buffer[i] = char
    return legacy


@pytest.mark.skipif(
    sys.version_info >= (3, 12)
    or not hasattr(ctypes.pythonapi, "PyUnicode_FromUnicode"),
    reason="every str is ready from 3.12 on (PEP 623): nothing to prepare",
)
def test_the_reader_prepares_a_legacy_str_before_it_reads_it(
    compiled: ModuleType,
) -> None:
    text = "Art. 6 DSGVO und § 280 BGB; Abs. 2 gilt"
    places = tuple(compiled.candidates(text))
    assert compiled.candidates(_legacy_str(text)) == list(places)
    parser = _Parser(text, None)
    parser.text = _legacy_str(text)
    assert compiled.advance(parser, places, 0) == len(places)
    assert parser.results == _python(text)
    # the value of the unit before a bare "Abs. 2"
    parser = _Parser("Abs. 2 gilt", None)
    parser.last_unit = ("sec", _legacy_str("280"), 1, 0, None)
    compiled.advance(parser, (0,), 0)
    assert [c.levels for c in parser.results] == [(("sec", "280"), ("para", "2"))]
