/* The citation parser's hot path in C: the candidate scan and the reading of
 * the units that start with "§", "Art."/"Artikel"/"Article" or a bare
 * "Abs."/"paragraph" (their subdivisions, lists, ranges, "ff.", "i.V.m."
 * chains), building the Citation values.
 *
 * Each function mirrors one step of the pure-Python parser
 * (citations/domain/parser*.py; the steps of parser_reference.py where a
 * step has a faster Python form) and each matcher one regular expression of
 * citations/domain/patterns.py, as sre matches it: the same character
 * classes (\s Py_UNICODE_ISSPACE, \d Py_UNICODE_ISDECIMAL, \w
 * Py_UNICODE_ISALNUM or "_"), the same order of alternatives and the same
 * backtracking where it can change the result (each matcher says why it may
 * read greedily).
 *
 * What it does not read itself it hands over: a candidate whose trigger is a
 * recital, an annex, an Anlage, a VV number, "point (a) of" or a spelled
 * "Paragraf"/"Section", or a chain that reaches one, goes back to the
 * Python steps whole (no state of the parser changed). The act after a unit
 * is looked up by the parser's own Python method (after the check that a
 * name can start there), the act before it by the Python function the
 * parser uses (after the same cheap checks). tests/citations/
 * test_parser_compiled.py holds both paths to the same citations.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

typedef int32_t ch_t; /* a code point, or -1 outside the text */

/* A str of 3.11 may still be a legacy one (made by the deprecated wchar_t
 * API, its canonical form not yet built): PyUnicode_READY builds it before
 * PyUnicode_KIND/DATA/READ may be used. From 3.12 on every str is ready and
 * the call is a deprecated no-op, so it is left out there. */
#if PY_VERSION_HEX < 0x030C0000
#define STR_READY(op) PyUnicode_READY(op)
#else
#define STR_READY(op) 0
#endif

#define OK 0
#define HANDOVER 1
#define ERR (-1)

/* ------------------------------------------------------------------ text */

typedef struct {
    int kind;
    const void *data;
    Py_ssize_t n;
} Text;

static inline ch_t
at(const Text *t, Py_ssize_t i)
{
    if (i < 0 || i >= t->n)
        return -1;
    return (ch_t)PyUnicode_READ(t->kind, t->data, i);
}

static inline int
is_space(ch_t c)
{
    return c >= 0 && Py_UNICODE_ISSPACE((Py_UCS4)c);
}
static inline int
is_digit(ch_t c) /* \d */
{
    if (c < 0x80)
        return c >= '0' && c <= '9';
    return Py_UNICODE_ISDECIMAL((Py_UCS4)c);
}
static inline int
is_word(ch_t c) /* \w */
{
    if (c < 0x80)
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
               (c >= 'A' && c <= 'Z') || c == '_';
    return Py_UNICODE_ISALNUM((Py_UCS4)c);
}
static inline int
is_az(ch_t c)
{
    return c >= 'a' && c <= 'z';
}
static inline int
is_AZ(ch_t c)
{
    return c >= 'A' && c <= 'Z';
}

static inline Py_ssize_t
skip_ws(const Text *t, Py_ssize_t p)
{
    while (is_space(at(t, p)))
        p++;
    return p;
}

/* \b at p (sre: the left side may lie before the match's start) */
static inline int
boundary(const Text *t, Py_ssize_t p)
{
    if (t->n == 0)
        return 0;
    return is_word(at(t, p - 1)) != is_word(at(t, p));
}

/* $ at p (no MULTILINE): the end, or a final newline before it */
static inline int
at_end(const Text *t, Py_ssize_t p)
{
    return p == t->n || (p == t->n - 1 && at(t, p) == '\n');
}

/* The literal ``s`` (UTF-8) at p: its end, or -1. */
static Py_ssize_t
lit_rest(const Text *t, Py_ssize_t p, const char *s)
{
    const unsigned char *u = (const unsigned char *)s;
    while (*u) {
        Py_UCS4 c;
        if (u[0] < 0x80) {
            c = u[0];
            u += 1;
        }
        else if ((u[0] & 0xE0) == 0xC0) {
            c = ((Py_UCS4)(u[0] & 0x1F) << 6) | (u[1] & 0x3F);
            u += 2;
        }
        else {
            c = ((Py_UCS4)(u[0] & 0x0F) << 12) | ((Py_UCS4)(u[1] & 0x3F) << 6) |
                (u[2] & 0x3F);
            u += 3;
        }
        if (at(t, p) != (ch_t)c)
            return -1;
        p++;
    }
    return p;
}

static inline Py_ssize_t
lit(const Text *t, Py_ssize_t p, const char *s)
{
    unsigned char u = (unsigned char)s[0];
    if (u < 0x80 && at(t, p) != (ch_t)u)
        return -1; /* most calls end here */
    return lit_rest(t, p, s);
}

/* the first of ``words`` (NULL-terminated, in the pattern's order) at p */
static Py_ssize_t
lit_any(const Text *t, Py_ssize_t p, const char *const *words, int *which)
{
    for (int i = 0; words[i]; i++) {
        Py_ssize_t e = lit(t, p, words[i]);
        if (e >= 0) {
            if (which)
                *which = i;
            return e;
        }
    }
    return -1;
}

static Py_ssize_t
run_of(const Text *t, Py_ssize_t p, int (*pred)(ch_t))
{
    Py_ssize_t q = p;
    while (pred(at(t, q)))
        q++;
    return q - p;
}

static int
is_ivx(ch_t c)
{
    return c == 'i' || c == 'v' || c == 'x';
}
static int
is_IVX(ch_t c)
{
    return c == 'I' || c == 'V' || c == 'X';
}
static int
is_az09(ch_t c)
{
    return is_az(c) || (c >= '0' && c <= '9');
}
static int
is_ws_tab(ch_t c)
{
    return c == ' ' || c == '\t';
}

/* -------------------------------------------------------------- values */

#define VAL_MAX 16
typedef struct {
    int len;
    Py_UCS4 c[VAL_MAX];
} Val;

/* text[a:b], without the spaces if ``nospace``; 0 where it is too long */
static int
val_from(const Text *t, Py_ssize_t a, Py_ssize_t b, int nospace, Val *v)
{
    v->len = 0;
    for (Py_ssize_t i = a; i < b; i++) {
        ch_t c = at(t, i);
        if (nospace && c == ' ')
            continue;
        if (v->len >= VAL_MAX)
            return 0;
        v->c[v->len++] = (Py_UCS4)c;
    }
    return 1;
}

static void
val_ascii(Val *v, const char *s)
{
    v->len = 0;
    while (*s && v->len < VAL_MAX)
        v->c[v->len++] = (unsigned char)*s++;
}

static int
val_eq(const Val *a, const Val *b)
{
    return a->len == b->len && memcmp(a->c, b->c, sizeof(Py_UCS4) * a->len) == 0;
}

/* str comparison by code points: a > b */
static int
val_gt(const Val *a, const Val *b)
{
    int n = a->len < b->len ? a->len : b->len;
    for (int i = 0; i < n; i++) {
        if (a->c[i] != b->c[i])
            return a->c[i] > b->c[i];
    }
    return a->len > b->len;
}

/* _DIGITS.match(value): the leading \d+ as an int; -1 where there is none */
static long
val_leading_int(const Val *v)
{
    long n = 0;
    int i = 0;
    for (; i < v->len && Py_UNICODE_ISDECIMAL(v->c[i]); i++) {
        n = n * 10 + Py_UNICODE_TODECIMAL(v->c[i]);
        if (n > 100000000L)
            n = 100000000L; /* values are short; never reached */
    }
    return i ? n : -1;
}

static int
val_first_isdigit(const Val *v) /* value[:1].isdigit() */
{
    return v->len > 0 && Py_UNICODE_ISDIGIT(v->c[0]);
}

static int
val_isalpha(const Val *v) /* value.isalpha() */
{
    if (v->len == 0)
        return 0;
    for (int i = 0; i < v->len; i++)
        if (!Py_UNICODE_ISALPHA(v->c[i]))
            return 0;
    return 1;
}

static PyObject *
val_str(const Val *v)
{
    return PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, v->c, v->len);
}

/* -------------------------------------------------------------- levels */

enum {
    L_ART,
    L_SEC,
    L_RECITAL,
    L_ANNEX,
    L_PART,
    L_ASEC,
    L_PARA,
    L_SUBPARA,
    L_SENT,
    L_HALF,
    L_POINT,
    L_SUBPOINT,
    L_SUBSUBPOINT,
    L_ALT,
    NLEVELS
};
static const char *const LEVEL_NAMES[NLEVELS] = {
    "art",  "sec",     "recital", "annex", "part",     "asec",        "para",
    "subpara", "sent", "half",    "point", "subpoint", "subsubpoint", "alt",
};
static const int ORDER[NLEVELS] = {0, 0, 0, 0, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9};

#define BIT(k) (1u << (k))

enum { SRC_NONE, SRC_STATED, SRC_CONTEXT, SRC_DEFAULT };

typedef struct {
    Py_ssize_t start, end;
    int nlev;
    uint8_t lk[NLEVELS];
    Val lv[NLEVELS];
    uint32_t stated;
    long lang_de, lang_en;
    int nparen;
    uint8_t paren[32];
    uint32_t lit_kinds;
    int has_range;
    Val range_end;
    int following; /* 0, 1 "f", 2 "ff" */
    PyObject *instrument; /* owned, or NULL */
    int source;
    int context_bound, quick, plural;
    long tops;
    long batch;
} Item;

static int
lev_find(const Item *it, int k)
{
    for (int i = 0; i < it->nlev; i++)
        if (it->lk[i] == k)
            return i;
    return -1;
}
#define HAS(it, k) (lev_find((it), (k)) >= 0)

/* item.levels[k] = v (a dict: a new key goes last, a known one keeps its place) */
static void
lev_put(Item *it, int k, const Val *v)
{
    int i = lev_find(it, k);
    if (i < 0) {
        i = it->nlev++;
        it->lk[i] = (uint8_t)k;
    }
    it->lv[i] = *v;
}

static int
lev_first(const Item *it)
{
    return it->lk[0];
}
static int
lev_last(const Item *it)
{
    return it->lk[it->nlev - 1];
}

static int
in_level_order(const Item *it)
{
    int previous = -1;
    for (int i = 0; i < it->nlev; i++) {
        int r = ORDER[it->lk[i]];
        if (r <= previous)
            return 0;
        previous = r;
    }
    return 1;
}

static void
item_init(Item *it, Py_ssize_t start, Py_ssize_t end)
{
    memset(it, 0, sizeof(*it));
    it->start = start;
    it->end = end;
    it->tops = 1;
}

static void
item_clear(Item *it)
{
    Py_CLEAR(it->instrument);
}

static void
item_set_instrument(Item *it, PyObject *info)
{
    Py_XINCREF(info);
    Py_XSETREF(it->instrument, info);
}

/* _Item.deepest() */
static int
item_deepest(const Item *it)
{
    int last = lev_last(it);
    if (last == L_SENT && it->nlev > 2 && !in_level_order(it))
        return it->nlev - 1;
    int best = 0;
    for (int i = 1; i < it->nlev; i++)
        if (ORDER[it->lk[i]] > ORDER[it->lk[best]])
            best = i;
    return best;
}

/* _Item.inherit(below, start): a new list item sharing every level above
 * ``below`` */
static void
item_inherit(const Item *self, int below, Py_ssize_t start, Item *out)
{
    item_init(out, start, start);
    int bi = lev_find(self, below);
    if (bi >= 0 && HAS(self, L_SENT) && !in_level_order(self)) {
        for (int i = 0; i < bi; i++) {
            out->lk[out->nlev] = self->lk[i];
            out->lv[out->nlev++] = self->lv[i];
        }
    }
    else {
        int rank = ORDER[below];
        for (int i = 0; i < self->nlev; i++) {
            if (ORDER[self->lk[i]] < rank) {
                out->lk[out->nlev] = self->lk[i];
                out->lv[out->nlev++] = self->lv[i];
            }
        }
    }
    uint32_t present = 0;
    for (int i = 0; i < out->nlev; i++)
        present |= BIT(out->lk[i]);
    out->stated = self->stated & present;
    out->lang_de = self->lang_de;
    out->lang_en = self->lang_en;
    for (int i = 0; i < self->nparen; i++)
        if (present & BIT(self->paren[i]))
            out->paren[out->nparen++] = self->paren[i];
    out->lit_kinds = self->lit_kinds & present;
    out->context_bound = self->context_bound;
    out->plural = self->plural;
    out->tops = self->tops;
}

/* ------------------------------------------------------------ item lists */

typedef struct {
    Item *v;
    Py_ssize_t n, cap;
} Items;

/* room for ``more`` items after the ``n`` there are */
static int
items_reserve(Items *xs, Py_ssize_t more)
{
    if (xs->n + more <= xs->cap)
        return OK;
    Py_ssize_t cap = xs->cap ? xs->cap : 8;
    while (cap < xs->n + more) {
        if (cap > PY_SSIZE_T_MAX / 2 / (Py_ssize_t)sizeof(Item)) {
            PyErr_NoMemory();
            return ERR;
        }
        cap *= 2;
    }
    Item *v = PyMem_Realloc(xs->v, sizeof(Item) * cap);
    if (v == NULL) {
        PyErr_NoMemory();
        return ERR;
    }
    xs->v = v;
    xs->cap = cap;
    return OK;
}

static Item *
items_push(Items *xs)
{
    if (items_reserve(xs, 1) < 0)
        return NULL;
    return &xs->v[xs->n++];
}

/* move every item of ``from`` to the end of ``to`` (the references go
 * along). The room is made first: where that fails, every item (and the
 * reference it holds) is still in ``from`` alone, so that freeing both lists
 * releases each reference once. */
static int
items_move(Items *to, Items *from)
{
    if (from->n == 0)
        return OK;
    if (items_reserve(to, from->n) < 0)
        return ERR;
    memcpy(&to->v[to->n], from->v, sizeof(Item) * (size_t)from->n);
    to->n += from->n;
    from->n = 0;
    return OK;
}

static void
items_free(Items *xs)
{
    for (Py_ssize_t i = 0; i < xs->n; i++)
        item_clear(&xs->v[i]);
    PyMem_Free(xs->v);
    xs->v = NULL;
    xs->n = xs->cap = 0;
}

/* ------------------------------------------------------ number patterns */

/* (?!\d)(?![,.]\d) at p */
static int
num_tail_ok(const Text *t, Py_ssize_t p)
{
    ch_t c = at(t, p);
    if (is_digit(c))
        return 0;
    if ((c == ',' || c == '.') && is_digit(at(t, p + 1)))
        return 0;
    return 1;
}

/* _NUM / _SEC_NUM at p (after the whitespace): the end, or -1.
 * \d{1,4} is followed by a check that refuses a digit, so only the whole
 * run of digits can match; the suffixes are tried in the pattern's order. */
static Py_ssize_t
m_num(const Text *t, Py_ssize_t p, int sec)
{
    Py_ssize_t run = run_of(t, p, is_digit);
    if (run < 1 || run > 4)
        return -1;
    Py_ssize_t q = p + run;
    ch_t c = at(t, q);
    if (is_az(c)) { /* [a-z](?![a-z.]) */
        ch_t d = at(t, q + 1);
        if (!is_az(d) && d != '.' && num_tail_ok(t, q + 1))
            return q + 1;
    }
    if (sec && c == ' ' && is_az(at(t, q + 1))) {
        /* [ ][a-z](?=[ \t]+[A-ZÄÖÜ§]|[,;]|$) */
        Py_ssize_t r = q + 2;
        int ok = 0;
        if (is_ws_tab(at(t, r))) {
            Py_ssize_t s = r;
            while (is_ws_tab(at(t, s)))
                s++;
            ch_t e = at(t, s);
            ok = is_AZ(e) || e == 0xC4 || e == 0xD6 || e == 0xDC || e == 0xA7;
        }
        if (!ok) {
            ch_t e = at(t, r);
            ok = e == ',' || e == ';' || at_end(t, r);
        }
        if (ok && num_tail_ok(t, r))
            return r;
    }
    if (num_tail_ok(t, q))
        return q;
    return -1;
}

/* \d{1,n}[a-z]?(?!\d)(?![,.]\d) at p */
static Py_ssize_t
m_dig_letter(const Text *t, Py_ssize_t p, int n)
{
    Py_ssize_t run = run_of(t, p, is_digit);
    if (run < 1 || run > n)
        return -1;
    Py_ssize_t q = p + run;
    if (is_az(at(t, q)) && num_tail_ok(t, q + 1))
        return q + 1;
    if (num_tail_ok(t, q))
        return q;
    return -1;
}

/* \d{1,n} followed by a non-digit (?!\d): the end */
static Py_ssize_t
m_digits(const Text *t, Py_ssize_t p, int n)
{
    Py_ssize_t run = run_of(t, p, is_digit);
    if (run < 1 || run > n)
        return -1;
    return p + run;
}

/* \d{1,n}\b */
static Py_ssize_t
m_digits_b(const Text *t, Py_ssize_t p, int n)
{
    Py_ssize_t e = m_digits(t, p, n);
    if (e < 0 || is_word(at(t, e)))
        return -1;
    return e;
}

/* ---------------------------------------------------- end-of-unit checks */

static const char *const QUICK_STOP[] = {
    "und", "oder", "sowie", "bis", "bzw", "i", "iVm", "in", "and", "or", "to",
    "through", "of", "der", "des", "dem", "den", "the", "dieser", "diese", "this",
    "that", "et", "ff", "f", "lit", "litera", "point", "points", "first", "second",
    "third", "fourth", "fifth", "sixth", "last", "sentence", "subparagraph",
    "paragraph", "para", "paras", "letter", "letters", "nach", "aus", "zur", "zum",
    "im", "vom", "von", "analog", "a", "aa", "bb", "cc", NULL};

static int
is_qe_letter(ch_t c) /* [a-zäöüß] */
{
    return is_az(c) || c == 0xE4 || c == 0xF6 || c == 0xFC || c == 0xDF;
}

/* _QUICK_END at p */
static int
quick_end(const Text *t, Py_ssize_t p)
{
    ch_t c = at(t, p);
    if (is_ws_tab(c)) {
        Py_ssize_t q = p;
        while (is_ws_tab(at(t, q)))
            q++;
        if (!is_qe_letter(at(t, q)) || !is_qe_letter(at(t, q + 1)))
            return 0;
        for (int i = 0; QUICK_STOP[i]; i++) {
            Py_ssize_t e = lit(t, q, QUICK_STOP[i]);
            if (e >= 0 && !is_word(at(t, e)))
                return 0;
        }
        return 1;
    }
    if (c == '.' || c == ';' || c == ':' || c == ')' || c == ']') {
        ch_t d = at(t, p + 1);
        return !(is_digit(d) || d == ')');
    }
    return 0;
}

/* (?=[\s,;)]|\.(?:\s|$)|$) at p */
static int
roman_after_ok(const Text *t, Py_ssize_t p)
{
    ch_t c = at(t, p);
    if (is_space(c) || c == ',' || c == ';' || c == ')')
        return 1;
    if (c == '.' && (is_space(at(t, p + 1)) || at_end(t, p + 1)))
        return 1;
    return at_end(t, p);
}

/* _ROMAN_PARA (\s+([IVX]{1,4})...) / _ROMAN_SENT (\s+(\d{1,2})...) at p */
static Py_ssize_t
m_roman(const Text *t, Py_ssize_t p, int sent, Py_ssize_t *vstart)
{
    Py_ssize_t q = skip_ws(t, p);
    if (q == p)
        return -1;
    Py_ssize_t run = sent ? run_of(t, q, is_digit) : run_of(t, q, is_IVX);
    if (run < 1 || run > (sent ? 2 : 4))
        return -1;
    if (!roman_after_ok(t, q + run))
        return -1;
    *vstart = q;
    return q + run;
}

static long
roman_to_int(const Text *t, Py_ssize_t a, Py_ssize_t b)
{
    long total = 0, prev = 0;
    for (Py_ssize_t i = b - 1; i >= a; i--) {
        ch_t c = at(t, i);
        long n = c == 'I' ? 1 : c == 'V' ? 5 : c == 'X' ? 10 : c == 'L' ? 50 : 100;
        total = n < prev ? total - n : total + n;
        if (n > prev)
            prev = n;
    }
    return total;
}

/* ------------------------------------------------------------- _TAIL */

enum {
    T_NONE,
    T_PAREN,
    T_ABS,
    T_UABS,
    T_SATZ,
    T_HS,
    T_NR,
    T_LIT,
    T_ALT,
    T_PART,
    T_ENPOINT,
    T_ENSUB,
    T_ENSENT,
    T_ENPARA,
    T_ASEC,
    T_LETP
};

typedef struct {
    int group;
    Py_ssize_t end;
    Py_ssize_t va, vb; /* the value's span */
    int ordinal;       /* ensub/ensent: the ordinal's number, or 0 */
} Tail;

static const char *const ORDINALS[] = {"first", "second", "third",   "fourth",
                                       "fifth", "sixth",  "seventh", "eighth",
                                       "ninth", "tenth",  NULL};

/* \s*,?\s* (the comma taken where there is one: nothing after it may
 * start with a comma or a blank) */
static Py_ssize_t
ws_comma_ws(const Text *t, Py_ssize_t p)
{
    Py_ssize_t q = skip_ws(t, p);
    if (at(t, q) == ',')
        q = skip_ws(t, q + 1);
    return q;
}

/* \s?\(\s*(\d{1,3}[a-z]?|[a-z]{1,4})\s*\) at p (_PAREN_VALUE, _TAIL paren) */
static Py_ssize_t
m_paren(const Text *t, Py_ssize_t p, Py_ssize_t *va, Py_ssize_t *vb)
{
    Py_ssize_t q;
    if (is_space(at(t, p)) && at(t, p + 1) == '(')
        q = p + 2;
    else if (at(t, p) == '(')
        q = p + 1;
    else
        return -1;
    q = skip_ws(t, q);
    Py_ssize_t run = run_of(t, q, is_digit), e;
    if (run > 0) {
        if (run > 3)
            return -1;
        e = q + run;
        if (is_az(at(t, e)))
            e++;
    }
    else {
        run = run_of(t, q, is_az);
        if (run < 1 || run > 4)
            return -1;
        e = q + run;
    }
    Py_ssize_t r = skip_ws(t, e);
    if (at(t, r) != ')')
        return -1;
    *va = q;
    *vb = e;
    return r + 1;
}

static const char *const KW_ABS[] = {"Abs.", "Absatz", "Absätze", "Absätzen", NULL};
static const char *const KW_UABS[] = {"UAbs.",       "Uabs.",        "Unterabs.",
                                      "Unterabsatz", "Unterabsätze", "UA",
                                      NULL};
static const char *const KW_SATZ[] = {"S.", "Satz", "Sätze", "Sätzen", NULL};
static const char *const KW_HS[] = {"Hs.", "HS", "Halbs.", "Halbsatz", "Hbs.", NULL};
static const char *const KW_NR[] = {"Nr.",    "Nrn.",   "Nummer",  "Nummern",
                                    "Ziff.",  "Ziffer", "Ziffern", "Ziff",
                                    NULL};
static const char *const KW_LIT[] = {"lit.",   "Buchst.", "Buchstabe", "Buchstaben",
                                     "Bst.",   "litera",  "letters",   "letter",
                                     NULL};
static const char *const KW_ALT[] = {"Alt.", "Alternative", "Var.", "Variante", NULL};
static const char *const KW_PART[] = {"Abschnitt", "Section", "Teil", "Part", NULL};

/* (?=\s?\d) */
static int
ws_opt_digit(const Text *t, Py_ssize_t p)
{
    return (is_space(at(t, p)) && is_digit(at(t, p + 1))) || is_digit(at(t, p));
}

/* _TAIL at p: the first alternative that matches, in the pattern's order */
static int
m_tail(const Text *t, Py_ssize_t p, Tail *m)
{
    Py_ssize_t q, e, v;
    m->ordinal = 0;
    /* paren */
    e = m_paren(t, p, &m->va, &m->vb);
    if (e >= 0) {
        m->end = e;
        return m->group = T_PAREN;
    }
    q = skip_ws(t, p);
    Py_ssize_t r = ws_comma_ws(t, p);
    ch_t cq = at(t, q), cr = at(t, r);
    /* each alternative is tried only where its keyword can start: "A" for
     * "Abs.", ... (a check that changes no match) */
    if (cq == 'A')
    /* abs: every keyword that matches is tried with what follows it */
    for (int i = 0; KW_ABS[i]; i++) {
        Py_ssize_t k = lit(t, q, KW_ABS[i]);
        if (k < 0)
            continue;
        v = skip_ws(t, k);
        e = m_dig_letter(t, v, 3);
        if (e >= 0) {
            m->va = v, m->vb = e, m->end = e;
            return m->group = T_ABS;
        }
    }
    e = cq == 'A' ? lit(t, q, "Abs") : -1;
    if (e >= 0 && is_space(at(t, e)) && is_digit(at(t, e + 1))) {
        v = skip_ws(t, e);
        Py_ssize_t f = m_dig_letter(t, v, 3);
        if (f >= 0) {
            m->va = v, m->vb = f, m->end = f;
            return m->group = T_ABS;
        }
    }
    /* uabs */
    if (cq == 'U')
    for (int i = 0; KW_UABS[i]; i++) {
        Py_ssize_t k = lit(t, q, KW_UABS[i]);
        if (k < 0)
            continue;
        v = skip_ws(t, k);
        e = m_digits(t, v, 2);
        if (e >= 0) {
            m->va = v, m->vb = e, m->end = e;
            return m->group = T_UABS;
        }
    }
    /* satz */
    if (cq == 'S')
    for (int i = 0; KW_SATZ[i]; i++) {
        Py_ssize_t k = lit(t, q, KW_SATZ[i]);
        if (k < 0)
            continue;
        v = skip_ws(t, k);
        e = m_digits(t, v, 2);
        if (e >= 0 && num_tail_ok(t, e)) {
            m->va = v, m->vb = e, m->end = e;
            return m->group = T_SATZ;
        }
    }
    /* hs: "Hs. 1" or "1. Hs." after \s*,?\s* */
    if (cr == 'H' || is_digit(cr)) {
        for (int i = 0; KW_HS[i]; i++) {
            Py_ssize_t k = lit(t, r, KW_HS[i]);
            if (k < 0)
                continue;
            v = skip_ws(t, k);
            if (is_digit(at(t, v)) && !is_digit(at(t, v + 1))) {
                m->va = v, m->vb = v + 1, m->end = v + 1;
                return m->group = T_HS;
            }
        }
        if (is_digit(at(t, r)) && at(t, r + 1) == '.') {
            Py_ssize_t s = skip_ws(t, r + 2);
            for (int i = 0; KW_HS[i]; i++) {
                Py_ssize_t k = lit(t, s, KW_HS[i]);
                if (k >= 0 && !is_digit(at(t, k))) {
                    m->va = r, m->vb = r + 1, m->end = k;
                    return m->group = T_HS;
                }
            }
        }
    }
    /* nr */
    if (cq == 'N' || cq == 'Z' || cq == 'n') {
        Py_ssize_t ks[16];
        int nk = 0;
        for (int i = 0; KW_NR[i]; i++) {
            Py_ssize_t k = lit(t, q, KW_NR[i]);
            if (k >= 0)
                ks[nk++] = k;
        }
        e = lit(t, q, "Nr");
        if (e >= 0 && ws_opt_digit(t, e))
            ks[nk++] = e;
        e = lit(t, q, "nos.");
        if (e >= 0 && ws_opt_digit(t, e))
            ks[nk++] = e;
        e = lit(t, q, "no.");
        if (e >= 0 && ws_opt_digit(t, e))
            ks[nk++] = e;
        for (int i = 0; i < nk; i++) {
            v = skip_ws(t, ks[i]);
            e = m_dig_letter(t, v, 3);
            if (e < 0) {
                Py_ssize_t run = run_of(t, v, is_ivx);
                if (run >= 1 && run <= 5 && !is_word(at(t, v + run)) &&
                    num_tail_ok(t, v + run))
                    e = v + run;
            }
            if (e >= 0) {
                m->va = v, m->vb = e, m->end = e;
                return m->group = T_NR;
            }
        }
    }
    /* lit */
    if (cq == 'l' || cq == 'B')
    for (int i = 0; KW_LIT[i]; i++) {
        Py_ssize_t k = lit(t, q, KW_LIT[i]);
        if (k < 0)
            continue;
        v = skip_ws(t, k);
        Py_ssize_t run = run_of(t, v, is_az);
        if (run >= 1 && run <= 2 && !is_word(at(t, v + run))) {
            e = v + run;
            m->va = v, m->vb = e;
            m->end = at(t, e) == ')' ? e + 1 : e;
            return m->group = T_LIT;
        }
    }
    /* alt */
    if (cq == 'A' || cq == 'V')
    for (int i = 0; KW_ALT[i]; i++) {
        Py_ssize_t k = lit(t, q, KW_ALT[i]);
        if (k < 0)
            continue;
        v = skip_ws(t, k);
        e = m_digits_b(t, v, 2);
        if (e >= 0) {
            m->va = v, m->vb = e, m->end = e;
            return m->group = T_ALT;
        }
    }
    /* part */
    if (cr == 'A' || cr == 'S' || cr == 'T' || cr == 'P')
    for (int i = 0; KW_PART[i]; i++) {
        Py_ssize_t k = lit(t, r, KW_PART[i]);
        if (k < 0)
            continue;
        v = skip_ws(t, k);
        if (v == k)
            continue;
        if (is_AZ(at(t, v)) && !is_word(at(t, v + 1)))
            e = v + 1;
        else
            e = m_digits_b(t, v, 2);
        if (e >= 0) {
            m->va = v, m->vb = e, m->end = e;
            return m->group = T_PART;
        }
    }
    /* enpoint: "points?" greedy, then "(x)" or a number */
    if (cr == 'p') {
        static const char *const KW[] = {"points", "point", NULL};
        for (int i = 0; KW[i]; i++) {
            Py_ssize_t k = lit(t, r, KW[i]);
            if (k < 0)
                continue;
            v = skip_ws(t, k);
            if (at(t, v) == '(') {
                Py_ssize_t run = run_of(t, v + 1, is_az09);
                if (run >= 1 && run <= 4 && at(t, v + 1 + run) == ')') {
                    m->va = v + 1, m->vb = v + 1 + run, m->end = v + 2 + run;
                    return m->group = T_ENPOINT;
                }
            }
            e = m_digits(t, v, 3);
            if (e >= 0 && num_tail_ok(t, e)) {
                m->va = v, m->vb = e, m->end = e;
                return m->group = T_ENPOINT;
            }
        }
    }
    /* ensub, ensent: "first subparagraph", "subparagraph 2" */
    if (cr == 'f' || cr == 's' || cr == 't' || cr == 'e' || cr == 'n')
    for (int sent = 0; sent < 2; sent++) {
        const char *word = sent ? "sentence" : "subparagraph";
        int last_ordinal = sent ? 6 : 10;
        for (int i = 0; i < last_ordinal; i++) {
            Py_ssize_t k = lit(t, r, ORDINALS[i]);
            if (k < 0)
                continue;
            v = skip_ws(t, k);
            if (v == k)
                continue;
            e = lit(t, v, word);
            if (e >= 0 && !is_word(at(t, e))) {
                m->ordinal = i + 1;
                m->va = m->vb = r;
                m->end = e;
                return m->group = sent ? T_ENSENT : T_ENSUB;
            }
        }
        Py_ssize_t k = lit(t, r, word);
        if (k >= 0) {
            v = skip_ws(t, k);
            if (v > k) {
                e = m_digits_b(t, v, 2);
                if (e >= 0) {
                    m->va = v, m->vb = e, m->end = e;
                    return m->group = sent ? T_ENSENT : T_ENSUB;
                }
            }
        }
    }
    /* enpara */
    if (cq == 'p') {
        Py_ssize_t k = lit(t, q, "paragraph");
        v = -1;
        if (k >= 0 && is_space(at(t, k)))
            v = skip_ws(t, k);
        if (v < 0) {
            k = lit(t, q, "paras.");
            if (k < 0)
                k = lit(t, q, "para.");
            if (k >= 0)
                v = skip_ws(t, k);
        }
        if (v >= 0) {
            e = m_digits(t, v, 3);
            if (e >= 0) {
                m->va = v, m->vb = e, m->end = e;
                return m->group = T_ENPARA;
            }
        }
    }
    /* asec: \s+§\s*\d{1,3}[a-z]? */
    if (q > p && at(t, q) == 0xA7) {
        v = skip_ws(t, q + 1);
        e = m_dig_letter(t, v, 3);
        if (e >= 0) {
            m->va = v, m->vb = e, m->end = e;
            return m->group = T_ASEC;
        }
    }
    /* letp: [ \t]+([a-z]{1,2})\)(?!\w) */
    if (is_ws_tab(at(t, p))) {
        Py_ssize_t s = p;
        while (is_ws_tab(at(t, s)))
            s++;
        Py_ssize_t run = run_of(t, s, is_az);
        if (run >= 1 && run <= 2 && at(t, s + run) == ')' &&
            !is_word(at(t, s + run + 1))) {
            m->va = s, m->vb = s + run, m->end = s + run + 1;
            return m->group = T_LETP;
        }
    }
    return m->group = T_NONE;
}

/* ------------------------------------------------ ff., ranges, values */

/* _FOLLOWING: \s*(?:(ff?)\.|(et\s+seqq?\.)); *f: 1 "f", 2 "ff" */
static Py_ssize_t
m_following(const Text *t, Py_ssize_t p, int *f)
{
    Py_ssize_t q = skip_ws(t, p), e;
    if ((e = lit(t, q, "ff.")) >= 0) {
        *f = 2;
        return e;
    }
    if ((e = lit(t, q, "f.")) >= 0) {
        *f = 1;
        return e;
    }
    e = lit(t, q, "et");
    if (e >= 0) {
        Py_ssize_t s = skip_ws(t, e);
        if (s > e) {
            Py_ssize_t g = lit(t, s, "seqq.");
            if (g < 0)
                g = lit(t, s, "seq.");
            if (g >= 0) {
                *f = 2;
                return g;
            }
        }
    }
    return -1;
}

/* _RANGE: \s*(?:bis|–|—|-|to|through)\s* */
static Py_ssize_t
m_range(const Text *t, Py_ssize_t p)
{
    static const char *const W[] = {"bis", "–", "—", "-", "to", "through", NULL};
    Py_ssize_t e = lit_any(t, skip_ws(t, p), W, NULL);
    return e < 0 ? -1 : skip_ws(t, e);
}

/* _BARE_VALUE at p; *letter: whether group 2 (the letter) matched */
static Py_ssize_t
m_bare_value(const Text *t, Py_ssize_t p, int *letter)
{
    Py_ssize_t e = m_num(t, p, 0);
    if (e >= 0) {
        *letter = 0;
        return e;
    }
    *letter = 1;
    ch_t c = at(t, p);
    if (!is_az(c))
        return -1;
    /* [a-z] | [ivx]{2,4} | ([a-z])\1, each then \b(?!\.) */
    if (!is_word(at(t, p + 1)) && at(t, p + 1) != '.')
        return p + 1;
    Py_ssize_t run = run_of(t, p, is_ivx);
    if (run >= 2 && run <= 4 && !is_word(at(t, p + run)) && at(t, p + run) != '.')
        return p + run;
    if (at(t, p + 1) == c && !is_word(at(t, p + 2)) && at(t, p + 2) != '.')
        return p + 2;
    return -1;
}

/* _LIST_SEP: \s*(?:,|;|(?:und|sowie|oder|and|or)\b|bzw\.|&)\s* */
static Py_ssize_t
m_list_sep(const Text *t, Py_ssize_t p, int *semicolon)
{
    static const char *const W[] = {"und", "sowie", "oder", "and", "or", NULL};
    Py_ssize_t q = skip_ws(t, p), e = -1;
    ch_t c = at(t, q);
    *semicolon = 0;
    if (c == ',' || c == ';' || c == '&') {
        e = q + 1;
        *semicolon = c == ';';
    }
    else {
        for (int i = 0; W[i] && e < 0; i++) {
            Py_ssize_t k = lit(t, q, W[i]);
            if (k >= 0 && !is_word(at(t, k)))
                e = k;
        }
        if (e < 0)
            e = lit(t, q, "bzw.");
    }
    return e < 0 ? -1 : skip_ws(t, e);
}

/* the alternatives of _JOIN after its leading \s*,?\s* */
static Py_ssize_t
m_join_word(const Text *t, Py_ssize_t p)
{
    static const char *const W[] = {"und", "sowie", "oder", "and", "or", NULL};
    Py_ssize_t e = lit(t, p, "i.");
    if (e >= 0) { /* i\.\s?V\.\s?m\. */
        Py_ssize_t s = is_space(at(t, e)) ? e + 1 : e;
        Py_ssize_t g = lit(t, s, "V.");
        if (g >= 0) {
            Py_ssize_t h = is_space(at(t, g)) ? g + 1 : g;
            Py_ssize_t k = lit(t, h, "m.");
            if (k >= 0)
                return k;
        }
    }
    if ((e = lit(t, p, "iVm")) >= 0)
        return e;
    if ((e = lit(t, p, "i.V.")) >= 0)
        return e;
    e = lit(t, p, "in");
    if (e >= 0) {
        Py_ssize_t s = skip_ws(t, e);
        if (s > e) {
            Py_ssize_t g = lit(t, s, "Verbindung");
            if (g >= 0) {
                Py_ssize_t h = skip_ws(t, g);
                Py_ssize_t k = h > g ? lit(t, h, "mit") : -1;
                if (k >= 0)
                    return k;
            }
            g = lit(t, s, "conjunction");
            if (g >= 0) {
                Py_ssize_t h = skip_ws(t, g);
                Py_ssize_t k = h > g ? lit(t, h, "with") : -1;
                if (k >= 0)
                    return k;
            }
        }
    }
    for (int i = 0; W[i]; i++) {
        Py_ssize_t k = lit(t, p, W[i]);
        if (k >= 0 && !is_word(at(t, k)))
            return k;
    }
    if ((e = lit(t, p, "bzw.")) >= 0)
        return e;
    if (at(t, p) == ',' || at(t, p) == '/')
        return p + 1;
    return -1;
}

/* _JOIN: \s*,?\s*(?:...)\s*. With a comma after the blanks, the words are
 * tried after it first, then at the comma itself (the "," alternative). */
static Py_ssize_t
m_join(const Text *t, Py_ssize_t p)
{
    Py_ssize_t q = skip_ws(t, p), e = -1;
    if (at(t, q) == ',')
        e = m_join_word(t, skip_ws(t, q + 1));
    if (e < 0)
        e = m_join_word(t, q);
    return e < 0 ? -1 : skip_ws(t, e);
}

/* _ACCEPT_END (a blank run holding a newline matches by "\n" on
 * backtracking) */
static int
accept_end_re(const Text *t, Py_ssize_t p)
{
    static const char *const W[] = {
        "und",   "sowie",  "oder",  "bzw",    "and", "or",     "iVm",   "bis",
        "to",    "ff.",    "f.",    "Abs",    "Absatz", "UAbs", "S.",   "Satz",
        "Nr",    "Nummer", "lit",   "Buchst", "Alt", "Hs",     "Ziff",  "point",
        "first", "second", "third", "sentence", "subparagraph", NULL};
    Py_ssize_t q = skip_ws(t, p);
    for (Py_ssize_t i = p; i < q; i++)
        if (at(t, i) == '\n')
            return 1;
    if (q == t->n)
        return 1;
    ch_t c = at(t, q);
    switch (c) {
    case ',': case ';': case '.': case ':': case ')': case ']': case '"':
    case 0x201C: case 0x201D: case '\'': case 0x2019: case '(':
        return 1;
    }
    for (int i = 0; W[i]; i++) {
        Py_ssize_t e = lit(t, q, W[i]);
        if (e >= 0 && boundary(t, e))
            return 1;
    }
    Py_ssize_t e = lit(t, q, "i.");
    if (e >= 0) { /* i\.\s?V\b */
        Py_ssize_t s = is_space(at(t, e)) ? e + 1 : e;
        Py_ssize_t g = lit(t, s, "V");
        if (g >= 0 && boundary(t, g))
            return 1;
        if (s != e) {
            g = lit(t, e, "V");
            if (g >= 0 && boundary(t, g))
                return 1;
        }
    }
    e = lit(t, q, "in");
    if (e >= 0) {
        Py_ssize_t s = skip_ws(t, e);
        if (s > e) {
            Py_ssize_t g = lit(t, s, "Verbindung");
            if (g < 0)
                g = lit(t, s, "conjunction");
            if (g >= 0 && boundary(t, g))
                return 1;
        }
    }
    e = lit(t, q, "et");
    if (e >= 0) {
        Py_ssize_t s = skip_ws(t, e);
        Py_ssize_t g = s > e ? lit(t, s, "seq") : -1;
        if (g >= 0 && boundary(t, g))
            return 1;
    }
    return 0;
}

/* ------------------------------------------------------------- _TRIGGER */

enum { TR_NONE, TR_SEC, TR_ART, TR_BARE, TR_OTHER };

typedef struct {
    int kind;
    Py_ssize_t start, word_end, end;
    int plural;      /* a word of _PLURAL_WORDS */
    int de, en;      /* "Artikel…", "Article…" */
    int art_nodot;   /* the word is "Art" */
    int paragraph;   /* the bare word is "paragraph(s)" */
} Trig;

/* \s*(?=\d) after a trigger's word: its end, or -1 */
static Py_ssize_t
to_digit(const Text *t, Py_ssize_t p)
{
    Py_ssize_t q = skip_ws(t, p);
    return is_digit(at(t, q)) ? q : -1;
}

/* \s+of\s+Annex\s+[IVXL]+\b at p */
static int
of_annex(const Text *t, Py_ssize_t p)
{
    Py_ssize_t q = skip_ws(t, p), e;
    if (q == p || (e = lit(t, q, "of")) < 0)
        return 0;
    q = skip_ws(t, e);
    if (q == e || (e = lit(t, q, "Annex")) < 0)
        return 0;
    q = skip_ws(t, e);
    if (q == e)
        return 0;
    Py_ssize_t run = 0;
    ch_t c;
    while ((c = at(t, q + run)) == 'I' || c == 'V' || c == 'X' || c == 'L')
        run++;
    return run > 0 && !is_word(at(t, q + run));
}

/* Whether one of the trigger's alternatives the Python steps read matches
 * at s: a spelled or English section, a recital, an annex, "point (a) of",
 * an Anlage or a VV number (each as _TRIGGER has it). */
static int
other_trigger(const Text *t, Py_ssize_t s)
{
    static const char *const PARAGRAF[] = {"Paragrafen", "Paragraf", "Paragraphen",
                                           "Paragraph", NULL};
    static const char *const SECTION[] = {"Sections", "sections", "Section",
                                          "section",  "Secs.",    "Sec.",
                                          NULL};
    static const char *const REC[] = {
        "Erwägungsgrund",  "Erwägungsgründe", "Erwägungsgründen", "Erwägungsgrundes",
        "Erwägungsgrunds", "ErwGr.",          "ErwGr",            "ErwG.",
        "ErwG",            "EG",              "Recitals",         "recitals",
        "Recital",         "recital",         NULL};
    static const char *const ANX[] = {"Anhang", "Anhänge", "Anh.", "Annexes",
                                      "Annex",  "ANNEX",   NULL};
    static const char *const POINT[] = {"points", "point", NULL};
    static const char *const ORD[] = {"first", "second", "third", "fourth",
                                      "fifth", "sixth",  "seventh", "eighth",
                                      "ninth", "tenth",  "last",  NULL};
    static const char *const ANL[] = {"Anlagen", "Anlage", NULL};
    static const char *const VV[] = {"Nrn.",    "Nr.",    "Nrn",  "Nr",  "Nummern",
                                     "Nummer",  "Nos.",   "No.",  "nos.", "no.",
                                     NULL};
    Py_ssize_t e, q;
    ch_t c = at(t, s);
    /* sec: Paragra(?:f|ph)(?:en)?(?=\s)\s*(?=\d) (no \b) */
    if (c == 'P')
        for (int i = 0; PARAGRAF[i]; i++)
            if ((e = lit(t, s, PARAGRAF[i])) >= 0 && is_space(at(t, e)) &&
                to_digit(t, e) >= 0)
                return 1;
    if (!boundary(t, s))
        return 0;
    switch (c) {
    case 'S': case 's':
        /* sec: \b(?:[Ss]ections?|Secs?\.)(?=\s)\s*(?=\d); rev ordinals */
        for (int i = 0; SECTION[i]; i++)
            if ((e = lit(t, s, SECTION[i])) >= 0 && is_space(at(t, e)) &&
                to_digit(t, e) >= 0)
                return 1;
        break;
    case 'E': case 'R': case 'r':
        /* rec: \s*(?=\(?\d) after the word */
        for (int i = 0; REC[i]; i++) {
            if ((e = lit(t, s, REC[i])) < 0)
                continue;
            q = skip_ws(t, e);
            if (is_digit(at(t, q)) || (at(t, q) == '(' && is_digit(at(t, q + 1))))
                return 1;
        }
        return 0;
    case 'A':
        /* anx: \s+(?=[IVXL]+\b); anl: \s+(?=\d) */
        for (int i = 0; ANX[i]; i++) {
            if ((e = lit(t, s, ANX[i])) < 0)
                continue;
            q = skip_ws(t, e);
            if (q == e)
                continue;
            Py_ssize_t run = 0;
            ch_t d;
            while ((d = at(t, q + run)) == 'I' || d == 'V' || d == 'X' || d == 'L')
                run++;
            if (run > 0 && !is_word(at(t, q + run)))
                return 1;
        }
        for (int i = 0; ANL[i]; i++) {
            if ((e = lit(t, s, ANL[i])) < 0)
                continue;
            q = skip_ws(t, e);
            if (q > e && is_digit(at(t, q)))
                return 1;
        }
        return 0;
    case 'p':
        /* rev: points?\s+\((?=[a-z0-9]{1,4}\)) or points?\s+(?=\d{1,3}
         * (?:\s?\([a-z]{1,3}\))?\s+of\s+Annex\s+[IVXL]+\b) */
        for (int i = 0; POINT[i]; i++) {
            if ((e = lit(t, s, POINT[i])) < 0)
                continue;
            q = skip_ws(t, e);
            if (q == e)
                continue;
            if (at(t, q) == '(') {
                Py_ssize_t run = run_of(t, q + 1, is_az09);
                if (run >= 1 && run <= 4 && at(t, q + 1 + run) == ')')
                    return 1;
            }
            Py_ssize_t run = run_of(t, q, is_digit);
            if (run < 1 || run > 3)
                continue;
            Py_ssize_t d = q + run;
            Py_ssize_t b = is_space(at(t, d)) && at(t, d + 1) == '(' ? d + 1 : d;
            if (at(t, b) == '(') {
                Py_ssize_t lr = run_of(t, b + 1, is_az);
                if (lr >= 1 && lr <= 3 && at(t, b + 1 + lr) == ')' &&
                    of_annex(t, b + 2 + lr))
                    return 1;
            }
            if (of_annex(t, d))
                return 1;
        }
        return 0;
    case 'N': case 'n':
        /* vv: \s*(?=\d{4}\b) ("ninth" below) */
        for (int i = 0; VV[i]; i++) {
            if ((e = lit(t, s, VV[i])) < 0)
                continue;
            q = skip_ws(t, e);
            if (run_of(t, q, is_digit) == 4 && !is_word(at(t, q + 4)))
                return 1;
        }
        break;
    }
    /* rev: an ordinal, "subparagraph of" and then "Art" */
    for (int i = 0; ORD[i]; i++) {
        if ((e = lit(t, s, ORD[i])) < 0)
            continue;
        q = skip_ws(t, e);
        if (q == e || (e = lit(t, q, "subparagraph")) < 0)
            continue;
        q = skip_ws(t, e);
        if (q == e || (e = lit(t, q, "of")) < 0)
            continue;
        q = skip_ws(t, e);
        if (q > e && lit(t, q, "Art") >= 0)
            return 1;
    }
    return 0;
}

/* _TRIGGER at s, exact for § / articles / bare units */
static void
m_trigger(const Text *t, Py_ssize_t s, Trig *tr)
{
    memset(tr, 0, sizeof(*tr));
    tr->start = s;
    ch_t c = at(t, s);
    Py_ssize_t e;
    if (c == 0xA7) { /* §§? */
        if (at(t, s + 1) == 0xA7 && (e = to_digit(t, s + 2)) >= 0) {
            tr->kind = TR_SEC, tr->word_end = s + 2, tr->end = e, tr->plural = 1;
            return;
        }
        if ((e = to_digit(t, s + 1)) >= 0) {
            tr->kind = TR_SEC, tr->word_end = s + 1, tr->end = e;
            return;
        }
        return;
    }
    if (other_trigger(t, s)) {
        tr->kind = TR_OTHER;
        return;
    }
    if (!boundary(t, s))
        return;
    if (c == 'A') {
        static const char *const ART[] = {"Artikeln", "Artikel", "Articles",
                                          "Article",  "Artt.",   "Art.",
                                          "Arts.",    "Art",     NULL};
        for (int i = 0; ART[i]; i++) {
            Py_ssize_t w = lit(t, s, ART[i]);
            if (w < 0 || (e = to_digit(t, w)) < 0)
                continue;
            tr->kind = TR_ART, tr->word_end = w, tr->end = e;
            tr->de = i <= 1;
            tr->en = i == 2 || i == 3;
            tr->plural = i == 4; /* "Artt." */
            tr->art_nodot = i == 7;
            return;
        }
    }
    static const char *const BARE[] = {"Abs.",        "Absatz",     "Absätze",
                                       "UAbs.",       "Unterabsatz", "paragraphs",
                                       "paragraph",   NULL};
    for (int i = 0; BARE[i]; i++) {
        Py_ssize_t w = lit(t, s, BARE[i]);
        if (w < 0 || (e = to_digit(t, w)) < 0)
            continue;
        tr->kind = TR_BARE, tr->word_end = w, tr->end = e;
        tr->paragraph = i >= 5;
        return;
    }
}

/* ------------------------------------------------------- module state */

/* Everything the module keeps between calls, one per module object (PEP 489
 * multi-phase init): each interpreter that imports the module gets its own,
 * with its own Citation class, strings and caches, and configure() in one
 * interpreter changes nothing in another (mod_wsgi runs each application in
 * a sub-interpreter of one process). No static variable of this file is
 * written after it is compiled. */
#define NFIELDS 13
/* ("para", "1"): the pair of a level and a short value (up to three digits,
 * or one or two small letters) is built once and shared, as a tuple of two
 * strings can be; any other is built anew */
#define PAIR_SLOTS (1000 + 26 + 26 * 26)

typedef struct {
    /* set by exec: the level names, field values and attribute names */
    PyObject *level_str[NLEVELS];
    PyObject *s_stated, *s_context, *s_default, *s_de, *s_en, *s_f, *s_ff;
    PyObject *a_instrument, *a_text, *a_default, *a_results, *a_pos, *a_last_end,
        *a_last_unit, *a_group, *a_last_eu, *a_eu_scanned, *a_eu_named;
    /* the candidate scan's table of the character pairs a literal starts with */
    unsigned char scan_pair[256][16];
    /* set by configure() */
    PyObject *citation_type;
    PyObject *field_descr[NFIELDS];
    PyObject *act_named; /* citations.domain.parser_instrument.act_named_before */
    Py_UCS4 name_first[128];
    int n_name_first;
    /* filled as used: frozenset of the levels of a mask, (level, value) pairs
     * (they hold strings only, so no cycle runs through them) */
    PyObject *frozen_cache[1u << NLEVELS];
    PyObject *pair_cache[NLEVELS][PAIR_SLOTS];
} State;

static inline State *
get_state(PyObject *module)
{
    return (State *)PyModule_GetState(module);
}

/* ------------------------------------------------------------- the parser */

typedef struct {
    State *st;
    Text t;
    PyObject *text;    /* borrowed */
    PyObject *parser;  /* borrowed */
    PyObject *deflt;   /* borrowed; None or the default instrument */
    PyObject *instrument_method; /* owned, looked up on first use */
    Py_ssize_t last_end;
    int lu_set;   /* last_unit is not None */
    int lu_top;   /* its top level, or -1 where it is no level we read */
    int lu_ok;    /* its value fits a Val */
    Val lu_val;
    long lu_de, lu_en;
    PyObject *lu_inst; /* owned or NULL */
    /* the parser's EU state before this candidate's first instrument call */
    int snap;
    PyObject *snap_last_eu, *snap_scanned, *snap_named;
} P;

static int
snapshot(P *p)
{
    if (p->snap)
        return OK;
    p->snap_last_eu = PyObject_GetAttr(p->parser, p->st->a_last_eu);
    p->snap_scanned = PyObject_GetAttr(p->parser, p->st->a_eu_scanned);
    p->snap_named = PyObject_GetAttr(p->parser, p->st->a_eu_named);
    if (!p->snap_last_eu || !p->snap_scanned || !p->snap_named)
        return ERR;
    p->snap = 1;
    return OK;
}

static void
snapshot_drop(P *p)
{
    Py_CLEAR(p->snap_last_eu);
    Py_CLEAR(p->snap_scanned);
    Py_CLEAR(p->snap_named);
    p->snap = 0;
}

static int
snapshot_restore(P *p)
{
    int r = OK;
    if (p->snap) {
        if (PyObject_SetAttr(p->parser, p->st->a_last_eu, p->snap_last_eu) < 0 ||
            PyObject_SetAttr(p->parser, p->st->a_eu_scanned, p->snap_scanned) < 0 ||
            PyObject_SetAttr(p->parser, p->st->a_eu_named, p->snap_named) < 0)
            r = ERR;
    }
    snapshot_drop(p);
    return r;
}

static int
name_first_char(const State *st, ch_t c)
{
    if (is_AZ(c) || c == 0xC4 || c == 0xD6 || c == 0xDC)
        return 1;
    for (int i = 0; i < st->n_name_first; i++)
        if ((ch_t)st->name_first[i] == c)
            return 1;
    return 0;
}

/* after _INSTRUMENT_HEAD: a context word or a character a name starts with */
static int
name_starts(const State *st, const Text *t, Py_ssize_t r)
{
    static const char *const CTX[][2] = {
        {"dieser", "Verordnung"}, {"this", "Regulation"}, {"der", "Verordnung"},
        {"the", "Regulation"},    {"that", "Regulation"}, {"that", "Directive"},
        {"dieser", "Richtlinie"}, {"this", "Directive"},  {"der", "VO"},
    };
    if (name_first_char(st, at(t, r)))
        return 1;
    for (size_t i = 0; i < sizeof(CTX) / sizeof(CTX[0]); i++) {
        Py_ssize_t e = lit(t, r, CTX[i][0]);
        if (e < 0)
            continue;
        Py_ssize_t s = skip_ws(t, e);
        if (s > e && lit(t, s, CTX[i][1]) >= 0)
            return 1;
    }
    return 0;
}

/* _INSTRUMENT_CAN_START at p: implied by every match of _INSTRUMENT, so
 * where it fails the parser's _instrument() answers None */
static int
instrument_can_start(const State *st, const Text *t, Py_ssize_t p)
{
    static const char *const HEAD[][2] = {
        {"of", "the"}, {"of", NULL},  {"to", NULL},  {"der", NULL},
        {"des", NULL}, {"dem", NULL}, {"the", NULL}, {"aus", "der"},
        {"aus", "dem"}, {"nach", "der"},
    };
    Py_ssize_t q = ws_comma_ws(t, p);
    for (size_t i = 0; i < sizeof(HEAD) / sizeof(HEAD[0]); i++) {
        Py_ssize_t e = lit(t, q, HEAD[i][0]);
        if (e < 0)
            continue;
        if (HEAD[i][1] != NULL) {
            Py_ssize_t s = skip_ws(t, e);
            if (s == e || (e = lit(t, s, HEAD[i][1])) < 0)
                continue;
        }
        Py_ssize_t s = skip_ws(t, e);
        if (s > e && name_starts(st, t, s))
            return 1;
    }
    return name_starts(st, t, q);
}

typedef struct {
    int found;
    PyObject *info; /* borrowed from res */
    int source;
    Py_ssize_t end;
    int lang; /* 0 None, 1 de, 2 en */
    PyObject *res;  /* owned */
} Inst;

/* self._instrument(pos) */
static int
instrument(P *p, Py_ssize_t pos, Inst *in)
{
    memset(in, 0, sizeof(*in));
    if (!instrument_can_start(p->st, &p->t, pos))
        return OK;
    if (snapshot(p) < 0)
        return ERR;
    if (p->instrument_method == NULL) {
        p->instrument_method = PyObject_GetAttr(p->parser, p->st->a_instrument);
        if (p->instrument_method == NULL)
            return ERR;
    }
    PyObject *arg = PyLong_FromSsize_t(pos);
    if (arg == NULL)
        return ERR;
    PyObject *res = PyObject_CallOneArg(p->instrument_method, arg);
    Py_DECREF(arg);
    if (res == NULL)
        return ERR;
    if (res == Py_None) {
        Py_DECREF(res);
        return OK;
    }
    if (!PyTuple_Check(res) || PyTuple_GET_SIZE(res) != 4) {
        Py_DECREF(res);
        return HANDOVER;
    }
    in->res = res;
    in->info = PyTuple_GET_ITEM(res, 0);
    PyObject *source = PyTuple_GET_ITEM(res, 1);
    PyObject *lang = PyTuple_GET_ITEM(res, 3);
    in->end = PyLong_AsSsize_t(PyTuple_GET_ITEM(res, 2));
    if (in->end == -1 && PyErr_Occurred())
        return ERR;
    if (PyUnicode_Check(source) && PyUnicode_CompareWithASCIIString(source, "stated") == 0)
        in->source = SRC_STATED;
    else if (PyUnicode_Check(source) &&
             PyUnicode_CompareWithASCIIString(source, "context") == 0)
        in->source = SRC_CONTEXT;
    else
        return HANDOVER;
    if (lang == Py_None)
        in->lang = 0;
    else if (PyUnicode_Check(lang) && PyUnicode_CompareWithASCIIString(lang, "de") == 0)
        in->lang = 1;
    else if (PyUnicode_Check(lang) && PyUnicode_CompareWithASCIIString(lang, "en") == 0)
        in->lang = 2;
    else
        return HANDOVER;
    in->found = 1;
    return OK;
}

static void
inst_clear(Inst *in)
{
    Py_CLEAR(in->res);
}

/* _accept_end(pos) */
static int
accept_end(P *p, Py_ssize_t pos, int *ok)
{
    *ok = 1;
    if (pos >= p->t.n || accept_end_re(&p->t, pos))
        return OK;
    Inst in;
    int st = instrument(p, pos, &in);
    *ok = in.found;
    inst_clear(&in);
    return st;
}

/* _act_before(start): the cheap checks here, the names in Python */
static int
act_before(P *p, Py_ssize_t start, PyObject **info)
{
    const Text *t = &p->t;
    *info = NULL;
    Py_ssize_t begin = p->last_end > start - 70 ? p->last_end : start - 70;
    if (begin >= start)
        return OK;
    Py_ssize_t i = start - 1;
    while (i >= begin) {
        ch_t c = at(t, i);
        if (c == ' ' || c == ',' || c == '\t' || c == '\n' || c == 0xA0)
            i--;
        else
            break;
    }
    if (i < begin || !Py_UNICODE_ISALNUM((Py_UCS4)at(t, i)))
        return OK;
    Py_ssize_t j = i;
    while (j > begin && !is_space(at(t, j - 1)))
        j--;
    while (j <= i) {
        ch_t c = at(t, j);
        if (c == '(' || c == '[' || c == 0x201E || c == '"' || c == 0x201C)
            j++;
        else
            break;
    }
    if (j > i || !Py_UNICODE_ISUPPER((Py_UCS4)at(t, j)))
        return OK;
    /* held across the call: the function may call configure() */
    PyObject *act = Py_NewRef(p->st->act_named);
    PyObject *res = PyObject_CallFunction(act, "Onn", p->text, begin, start);
    Py_DECREF(act);
    if (res == NULL)
        return ERR;
    if (res == Py_None)
        Py_DECREF(res);
    else
        *info = res;
    return OK;
}

/* _bind_without_instrument(item) (an item we read has no annex) */
static int
bind_without_instrument(P *p, Item *it)
{
    if (it->instrument != NULL)
        return OK;
    PyObject *info;
    if (act_before(p, it->start, &info) < 0)
        return ERR;
    if (info != NULL) {
        it->instrument = info;
        it->source = SRC_STATED;
        return OK;
    }
    if (p->deflt != Py_None) {
        item_set_instrument(it, p->deflt);
        it->source = SRC_DEFAULT;
    }
    return OK;
}

/* -------------------------------------------------------------- the steps */

/* paren_kind(levels, value); -1 for None */
static int
paren_kind(const Item *it, const Val *v)
{
    int top = lev_first(it);
    if (top == L_RECITAL)
        return -1;
    if (top != L_ANNEX && v->len > 0 && Py_UNICODE_ISDIGIT(v->c[0]) &&
        !HAS(it, L_PARA) && !HAS(it, L_POINT))
        return L_PARA;
    static const int order[] = {L_POINT, L_SUBPOINT, L_SUBSUBPOINT};
    for (int i = 0; i < 3; i++)
        if (!HAS(it, order[i]))
            return order[i];
    return -1;
}

static int
point_kind(const Item *it)
{
    return HAS(it, L_POINT) ? L_SUBPOINT : L_POINT;
}

/* _set(item, kind, value) */
static int
set_level(Item *it, int kind, const Val *v)
{
    if (HAS(it, kind))
        return 0;
    int last = lev_last(it);
    if (kind == L_SENT && (last == L_POINT || last == L_SUBPOINT)) {
        lev_put(it, kind, v);
        it->stated |= BIT(kind);
        return 1;
    }
    int deepest = 0;
    for (int i = 0; i < it->nlev; i++)
        if (ORDER[it->lk[i]] > deepest)
            deepest = ORDER[it->lk[i]];
    if (ORDER[kind] <= deepest && kind != L_ALT &&
        !(kind == L_SUBPARA && !HAS(it, L_POINT)))
        return 0;
    lev_put(it, kind, v);
    it->stated |= BIT(kind);
    return 1;
}

/* _apply_tail(item, tm) with _apply_level; *applied: its bool. HANDOVER
 * where the Python step would keep more than an item holds. */
static int
apply_tail(P *p, Item *it, const Tail *m, int *applied)
{
    Val v;
    if (m->group == T_ENSUB || m->group == T_ENSENT) {
        if (m->ordinal) {
            char buf[4];
            snprintf(buf, sizeof buf, "%d", m->ordinal);
            val_ascii(&v, buf);
        }
        else if (!val_from(&p->t, m->va, m->vb, 0, &v))
            return HANDOVER;
    }
    else if (!val_from(&p->t, m->va, m->vb, 0, &v))
        return HANDOVER;
    int kind;
    *applied = 0;
    switch (m->group) {
    case T_PAREN:
        kind = paren_kind(it, &v);
        if (kind < 0)
            return OK;
        if (it->nparen >= 32)
            return HANDOVER;
        it->paren[it->nparen++] = (uint8_t)kind;
        *applied = set_level(it, kind, &v);
        return OK;
    case T_ABS:
        it->lang_de++;
        *applied = set_level(it, L_PARA, &v);
        return OK;
    case T_UABS:
        it->lang_de++;
        *applied = set_level(it, L_SUBPARA, &v);
        return OK;
    case T_SATZ:
        it->lang_de++;
        *applied = set_level(it, L_SENT, &v);
        return OK;
    case T_HS:
        it->lang_de++;
        *applied = set_level(it, L_HALF, &v);
        return OK;
    case T_ASEC:
        if (lev_first(it) != L_ART)
            return OK;
        *applied = set_level(it, L_ASEC, &v);
        return OK;
    case T_NR:
        it->lang_de++;
        kind = point_kind(it);
        if (!HAS(it, L_ANNEX) && kind == L_SUBPOINT && HAS(it, L_SUBPOINT))
            return OK;
        *applied = set_level(it, kind, &v);
        return OK;
    case T_LIT:
        it->lang_de++;
        kind = point_kind(it);
        it->lit_kinds |= BIT(kind);
        *applied = set_level(it, kind, &v); /* [a-z]: lower() keeps it */
        return OK;
    case T_LETP:
        if (!HAS(it, L_PARA) && !HAS(it, L_POINT))
            return OK;
        kind = point_kind(it);
        it->lit_kinds |= BIT(kind);
        *applied = set_level(it, kind, &v);
        return OK;
    case T_ALT:
        it->lang_de++;
        *applied = set_level(it, L_ALT, &v);
        return OK;
    case T_PART:
        if (!HAS(it, L_ANNEX))
            return OK;
        *applied = set_level(it, L_PART, &v);
        return OK;
    case T_ENPOINT:
        it->lang_en++;
        kind = point_kind(it);
        *applied = set_level(it, kind, &v);
        if (*applied) {
            if (it->nparen >= 32)
                return HANDOVER;
            it->paren[it->nparen++] = (uint8_t)kind;
        }
        return OK;
    case T_ENSUB:
        it->lang_en++;
        *applied = set_level(it, L_SUBPARA, &v);
        return OK;
    case T_ENSENT:
        it->lang_en++;
        *applied = set_level(it, L_SENT, &v);
        return OK;
    case T_ENPARA:
        it->lang_en++;
        *applied = set_level(it, L_PARA, &v);
        return OK;
    }
    return OK;
}

/* _range_ok(kind, start, end) (no annex among the items we read) */
static int
range_ok(const Val *start, const Val *end)
{
    long a = val_leading_int(start), b = val_leading_int(end);
    if (a >= 0 && b >= 0)
        return b >= a && !val_eq(end, start);
    if (a >= 0 || b >= 0)
        return 0;
    return val_gt(end, start);
}

/* _value_for(kind, pos) (no annex): *end -1 where there is none */
static int
value_for(P *p, Py_ssize_t pos, Val *v, Py_ssize_t *end)
{
    Py_ssize_t va, vb, e = m_paren(&p->t, pos, &va, &vb);
    if (e < 0) {
        int letter;
        e = m_bare_value(&p->t, pos, &letter);
        va = pos, vb = e;
    }
    *end = e;
    if (e >= 0 && !val_from(&p->t, va, vb, 0, v))
        return HANDOVER;
    return OK;
}

/* _tail(item, roman_ok), the reference form */
static int
tail(P *p, Item *it, int roman_ok)
{
    const Text *t = &p->t;
    Py_ssize_t pos = it->end, vs, e;
    int st;
    if (roman_ok && (e = m_roman(t, pos, 0, &vs)) >= 0 && !HAS(it, L_PARA)) {
        Val v;
        char buf[24];
        snprintf(buf, sizeof buf, "%ld", roman_to_int(t, vs, e));
        val_ascii(&v, buf);
        lev_put(it, L_PARA, &v);
        it->stated |= BIT(L_PARA);
        pos = e;
        it->lang_de++;
        Py_ssize_t se = m_roman(t, pos, 1, &vs);
        if (se >= 0) {
            int ok;
            if ((st = accept_end(p, se, &ok)) != OK)
                return st;
            if (ok) {
                if (!val_from(t, vs, se, 0, &v))
                    return HANDOVER;
                lev_put(it, L_SENT, &v);
                it->stated |= BIT(L_SENT);
                pos = se;
            }
        }
    }
    for (;;) {
        Tail m;
        if (m_tail(t, pos, &m) == T_NONE)
            break;
        int applied;
        if ((st = apply_tail(p, it, &m, &applied)) != OK)
            return st;
        if (!applied)
            break;
        pos = m.end;
    }
    int f;
    e = m_following(t, pos, &f);
    if (e >= 0 && !it->has_range) {
        it->following = f;
        pos = e;
    }
    else if ((e = m_range(t, pos)) >= 0) {
        int d = item_deepest(it);
        Val v;
        Py_ssize_t ve;
        if ((st = value_for(p, e, &v, &ve)) != OK)
            return st;
        if (ve >= 0 && range_ok(&it->lv[d], &v)) {
            it->has_range = 1;
            it->range_end = v;
            pos = ve;
        }
    }
    it->end = pos;
    return OK;
}

/* _paren_list_kind(last, value); -1 for None; HANDOVER where Python would
 * raise (a bracketed kind the item does not hold) */
static int
paren_list_kind(const Item *last, const Val *v, int *kind)
{
    *kind = -1;
    for (int i = last->nparen - 1; i >= 0; i--) {
        int k = last->paren[i];
        int li = lev_find(last, k);
        if (li < 0)
            return HANDOVER;
        if (val_first_isdigit(&last->lv[li]) == val_first_isdigit(v)) {
            *kind = k;
            return OK;
        }
    }
    return OK;
}

/* _list_next(last): *found, and the new item in ``out`` */
static int
list_next(P *p, const Item *last, Item *out, int *found)
{
    const Text *t = &p->t;
    int semicolon, st, ok;
    *found = 0;
    Py_ssize_t pos = m_list_sep(t, last->end, &semicolon);
    if (pos < 0)
        return OK;
    if (semicolon && !last->plural)
        return OK;
    Py_ssize_t va, vb, e = m_paren(t, pos, &va, &vb);
    if (e >= 0 && pos > last->end) {
        Val v;
        if (!val_from(t, va, vb, 0, &v))
            return HANDOVER;
        if (HAS(last, L_RECITAL))
            return HANDOVER;
        int kind;
        if ((st = paren_list_kind(last, &v, &kind)) != OK)
            return st;
        if (kind < 0)
            return OK;
        item_inherit(last, kind, pos, out);
        lev_put(out, kind, &v);
        out->stated |= BIT(kind);
        if (out->nparen >= 32)
            return HANDOVER;
        out->paren[out->nparen++] = (uint8_t)kind;
        out->end = e;
        if ((st = tail(p, out, 0)) != OK)
            return st;
        if ((st = accept_end(p, out->end, &ok)) != OK)
            return st;
        *found = ok;
        return OK;
    }
    int letter;
    e = m_bare_value(t, pos, &letter);
    if (e < 0)
        return OK;
    Val v;
    if (!val_from(t, pos, e, 0, &v))
        return HANDOVER;
    int di = item_deepest(last);
    int deep_kind = last->lk[di];
    const Val *deep_value = &last->lv[di];
    if (letter) {
        if ((deep_kind != L_POINT && deep_kind != L_SUBPOINT) || !val_isalpha(deep_value))
            return OK;
        int in_paren = 0;
        for (int i = 0; i < last->nparen; i++)
            in_paren |= last->paren[i] == deep_kind;
        if (!(last->lit_kinds & BIT(deep_kind)) && !in_paren)
            return OK;
        item_inherit(last, deep_kind, pos, out);
        lev_put(out, deep_kind, &v);
        out->stated |= BIT(deep_kind);
        out->lit_kinds = last->lit_kinds;
        out->end = e;
        if (at(t, last->end - 1) == ')' && at(t, out->end) == ')')
            out->end++;
        if ((st = accept_end(p, out->end, &ok)) != OK)
            return st;
        *found = ok;
        return OK;
    }
    Py_ssize_t after = e;
    int top = lev_first(last);
    Tail m;
    int followed_by_sub = m_tail(t, after, &m) != T_NONE;
    int kind = top;
    if (deep_kind != top && (last->tops < 2 || deep_kind != L_PARA)) {
        long a = val_leading_int(&v), b = val_leading_int(&last->lv[0]);
        int plural_above = last->plural && deep_kind == L_PARA &&
                           (a < 0 ? 0 : a) > (b < 0 ? 0 : b);
        if (!plural_above && !followed_by_sub && val_first_isdigit(deep_value) &&
            val_first_isdigit(&v)) {
            long n = val_leading_int(&v);
            if (n <= 30 && n > val_leading_int(deep_value))
                kind = deep_kind;
        }
    }
    if (kind == L_ANNEX)
        return OK;
    item_inherit(last, kind, pos, out);
    lev_put(out, kind, &v);
    out->stated |= BIT(kind);
    out->end = after;
    if (kind == top) {
        out->nparen = 0;
        out->lit_kinds = 0;
        out->tops = last->tops + 1;
        st = tail(p, out, top == L_ART || top == L_SEC);
    }
    else
        st = tail(p, out, 0);
    if (st != OK)
        return st;
    if (!(last->plural && kind == top)) {
        if ((st = accept_end(p, out->end, &ok)) != OK)
            return st;
        if (!ok)
            return OK;
    }
    *found = 1;
    return OK;
}

/* _list_rest(item): appends the items after it to ``out`` */
static int
list_rest(P *p, Items *out, Py_ssize_t first)
{
    Py_ssize_t last = first;
    for (;;) {
        /* initialised: list_next may fail before it writes it, and it is
         * cleared on every way out that does not keep it */
        Item next;
        item_init(&next, first, first);
        int found;
        int st = list_next(p, &out->v[last], &next, &found);
        if (st != OK || !found) {
            item_clear(&next);
            return st;
        }
        Item *slot = items_push(out);
        if (slot == NULL) {
            item_clear(&next);
            return ERR;
        }
        *slot = next;
        last = out->n - 1;
    }
}

/* _item_and_list(item, roman_ok), the reference form: ``item`` is the
 * last of ``out`` */
static int
item_and_list(P *p, Items *out, int roman_ok)
{
    Item *it = &out->v[out->n - 1];
    int st = tail(p, it, roman_ok);
    if (st != OK)
        return st;
    it = &out->v[out->n - 1];
    if (!it->plural && quick_end(&p->t, it->end)) {
        it->quick = 1;
        return OK;
    }
    return list_rest(p, out, out->n - 1);
}

/* _numbered(m, top, de=, en=), the reference form */
static int
numbered(P *p, const Trig *tr, int top, Items *out)
{
    const Text *t = &p->t;
    Py_ssize_t q = skip_ws(t, tr->end);
    Py_ssize_t e = m_num(t, q, top == L_SEC);
    if (e < 0)
        return OK;
    Item *it = items_push(out);
    if (it == NULL)
        return ERR;
    item_init(it, tr->start, e);
    Val v;
    if (!val_from(t, q, e, 1, &v))
        return HANDOVER;
    lev_put(it, top, &v);
    it->stated = BIT(top);
    it->lang_de = top == L_SEC ? 1 : tr->de;
    it->lang_en = top == L_SEC ? 0 : tr->en;
    it->plural = tr->plural;
    if (!it->plural && quick_end(t, it->end)) {
        it->quick = 1;
        return OK;
    }
    return item_and_list(p, out, 1);
}

/* _art_without_dot_ok(pos) */
static int
art_without_dot_ok(P *p, Py_ssize_t pos, int *ok)
{
    const Text *t = &p->t;
    Py_ssize_t e = m_num(t, skip_ws(t, pos), 0);
    *ok = 0;
    if (e < 0)
        return OK;
    Tail m;
    if (m_tail(t, e, &m) != T_NONE) {
        *ok = 1;
        return OK;
    }
    Inst in;
    int st = instrument(p, e, &in);
    *ok = in.found;
    inst_clear(&in);
    return st;
}

/* _bare(m) */
static int
bare(P *p, const Trig *tr, Items *out)
{
    const Text *t = &p->t;
    Py_ssize_t start = tr->start;
    if (!p->lu_set || p->last_end > start)
        return OK;
    if (start - p->last_end > 300)
        return OK;
    for (Py_ssize_t i = p->last_end; i + 1 < start; i++)
        if (at(t, i) == '\n' && at(t, i + 1) == '\n')
            return OK;
    if (p->lu_top != L_ART && p->lu_top != L_SEC)
        return OK;
    if (!p->lu_ok)
        return HANDOVER;
    Item *it = items_push(out);
    if (it == NULL)
        return ERR;
    item_init(it, start, start);
    lev_put(it, p->lu_top, &p->lu_val);
    it->lang_de = p->lu_de;
    it->lang_en = p->lu_en;
    if (p->lu_inst != NULL) {
        item_set_instrument(it, p->lu_inst);
        it->source = SRC_CONTEXT;
    }
    it->context_bound = 1;
    Tail m;
    if (m_tail(t, start, &m) == T_NONE) {
        if (!tr->paragraph) {
            out->n--;
            item_clear(it);
            return OK;
        }
        Py_ssize_t q = skip_ws(t, tr->end);
        Py_ssize_t e = m_num(t, q, 0);
        if (e < 0) {
            out->n--;
            item_clear(it);
            return OK;
        }
        Val v;
        if (!val_from(t, q, e, 0, &v))
            return HANDOVER;
        lev_put(it, L_PARA, &v);
        it->stated |= BIT(L_PARA);
        it->end = e;
        it->lang_en++;
    }
    return item_and_list(p, out, 0);
}

/* _head(m) for the triggers read here */
static int
head(P *p, const Trig *tr, Items *out)
{
    if (tr->kind == TR_SEC)
        return numbered(p, tr, L_SEC, out);
    if (tr->kind == TR_ART) {
        if (tr->art_nodot) {
            int ok;
            int st = art_without_dot_ok(p, tr->end, &ok);
            if (st != OK || !ok)
                return st;
        }
        return numbered(p, tr, L_ART, out);
    }
    if (tr->kind == TR_BARE)
        return bare(p, tr, out);
    return HANDOVER;
}

/* _keyword_item(prev, pos): after a joiner, "Abs. 2", "lit. b" continue
 * the previous item's parents; appends the new items to ``out``. ``prev`` is
 * a copy (``out`` may hold the original and move it), ``prev_instrument``
 * its act. */
static int
keyword_item(P *p, const Item *prev, PyObject *prev_instrument, Py_ssize_t pos,
             Items *out, int *found)
{
    Tail m;
    int st, ok, kind;
    *found = 0;
    int g = m_tail(&p->t, pos, &m);
    switch (g) { /* _KEYWORD_CONTINUATIONS, by _TAIL_KIND */
    case T_ABS: case T_ENPARA: kind = L_PARA; break;
    case T_UABS: case T_ENSUB: kind = L_SUBPARA; break;
    case T_LIT: case T_ENPOINT: kind = L_POINT; break;
    default: return OK;
    }
    if (kind == L_POINT && HAS(prev, L_POINT) && g == T_LIT)
        kind = (prev->lit_kinds & BIT(L_POINT)) ? L_POINT : L_SUBPOINT;
    int above = 0;
    for (int i = 0; i < prev->nlev; i++)
        above |= ORDER[prev->lk[i]] < ORDER[kind];
    if (!above)
        return OK;
    Py_ssize_t base = out->n;
    Item *it = items_push(out);
    if (it == NULL)
        return ERR;
    item_inherit(prev, kind, pos, it);
    item_set_instrument(it, prev_instrument);
    it->source = prev_instrument ? SRC_CONTEXT : SRC_NONE;
    if ((st = tail(p, it, 0)) != OK)
        return st;
    it = &out->v[base];
    if (it->end == pos)
        goto none;
    if ((st = accept_end(p, it->end, &ok)) != OK)
        return st;
    if (!ok)
        goto none;
    *found = 1;
    return list_rest(p, out, base);
none:
    out->n--;
    item_clear(&out->v[out->n]);
    return OK;
}

/* _plural_more(last, pos): appends to ``out``; *found */
static int
plural_more(P *p, const Item *last, Py_ssize_t pos, Items *out, int *found)
{
    const Text *t = &p->t;
    *found = 0;
    Py_ssize_t q = skip_ws(t, pos);
    Py_ssize_t e = m_num(t, q, 1);
    int top = lev_first(last);
    if (e < 0 || (top != L_SEC && top != L_ART))
        return OK;
    Py_ssize_t base = out->n;
    Item *it = items_push(out);
    if (it == NULL)
        return ERR;
    item_init(it, pos, e);
    Val v;
    if (!val_from(t, q, e, 1, &v))
        return HANDOVER;
    lev_put(it, top, &v);
    it->stated = BIT(top);
    it->lang_de = 1;
    it->plural = 1;
    it->tops = 2;
    int st = tail(p, it, 0), ok;
    if (st != OK)
        return st;
    if ((st = accept_end(p, out->v[base].end, &ok)) != OK)
        return st;
    if (!ok) {
        out->n--;
        item_clear(&out->v[out->n]);
        return OK;
    }
    *found = 1;
    return list_rest(p, out, base);
}

/* _chain_from(items): ``items`` (the head's) become ``done`` */
static int
chain_from(P *p, Items *pending, Items *done)
{
    const Text *t = &p->t;
    int st;
    if (pending->n == 0)
        return OK;
    if (pending->n == 1 && pending->v[0].quick) {
        if ((st = bind_without_instrument(p, &pending->v[0])) != OK)
            return st;
        return items_move(done, pending);
    }
    for (;;) {
        Py_ssize_t pos = pending->n ? pending->v[pending->n - 1].end
                                    : done->v[done->n - 1].end;
        if (pending->n) {
            Inst in;
            if ((st = instrument(p, pos, &in)) != OK) {
                inst_clear(&in);
                return st;
            }
            if (in.found) {
                for (Py_ssize_t i = 0; i < pending->n; i++) {
                    Item *it = &pending->v[i];
                    item_set_instrument(it, in.info == Py_None ? NULL : in.info);
                    it->source = in.source;
                    if (in.lang == 2)
                        it->lang_en++;
                    else if (in.lang == 1)
                        it->lang_de++;
                }
                pending->v[pending->n - 1].end = in.end;
                long batch = done->n ? done->v[done->n - 1].batch + 1 : 0;
                for (Py_ssize_t i = 0; i < pending->n; i++)
                    pending->v[i].batch = batch;
                if (items_move(done, pending) < 0) {
                    inst_clear(&in);
                    return ERR;
                }
                pos = in.end;
            }
            inst_clear(&in);
        }
        Py_ssize_t je = m_join(t, pos);
        if (je < 0)
            break;
        Trig tr;
        m_trigger(t, je, &tr);
        if (tr.kind == TR_OTHER)
            return HANDOVER;
        Items *lastlist = pending->n ? pending : done;
        if (tr.kind == TR_NONE && lastlist->v[lastlist->n - 1].plural &&
            !pending->n && done->n) {
            Item last = done->v[done->n - 1];
            last.instrument = NULL; /* a copy of its levels only */
            int found;
            if ((st = plural_more(p, &last, je, pending, &found)) != OK)
                return st;
            if (found)
                continue;
        }
        if (tr.kind == TR_NONE || tr.kind == TR_BARE) {
            Items *pl = pending->n ? pending : done;
            Item prev = pl->v[pl->n - 1];
            PyObject *prev_instrument = prev.instrument;
            prev.instrument = NULL; /* a copy: the list keeps the reference */
            int found;
            if ((st = keyword_item(p, &prev, prev_instrument, je, pending, &found)) != OK)
                return st;
            if (!found)
                break;
            continue;
        }
        Items *pl = pending->n ? pending : done;
        int prev_top = lev_first(&pl->v[pl->n - 1]);
        if ((tr.kind == TR_SEC) != (prev_top == L_SEC))
            break;
        Py_ssize_t before = pending->n;
        if ((st = head(p, &tr, pending)) != OK)
            return st;
        if (pending->n == before)
            break;
    }
    for (Py_ssize_t i = 0; i < pending->n; i++)
        if ((st = bind_without_instrument(p, &pending->v[i])) != OK)
            return st;
    return items_move(done, pending);
}

/* ------------------------------------------------------------- results */

static PyObject *
frozen(State *st, uint32_t mask)
{
    PyObject *f = st->frozen_cache[mask];
    if (f != NULL)
        return Py_NewRef(f);
    PyObject *items = PyList_New(0);
    if (items == NULL)
        return NULL;
    for (int k = 0; k < NLEVELS; k++)
        if (mask & BIT(k)) {
            if (PyList_Append(items, st->level_str[k]) < 0) {
                Py_DECREF(items);
                return NULL;
            }
        }
    f = PyFrozenSet_New(items);
    Py_DECREF(items);
    if (f == NULL)
        return NULL;
    /* looked at again: building it may have run Python code (the garbage
     * collector's finalizers) that parsed and filled the slot meanwhile */
    if (st->frozen_cache[mask] == NULL)
        st->frozen_cache[mask] = Py_NewRef(f);
    return f;
}

/* the slot of a value in State.pair_cache, or -1 where it has none */
static int
pair_slot(const Val *v)
{
    const Py_UCS4 *c = v->c;
    int allnum = v->len >= 1 && v->len <= 3, n = 0;
    for (int i = 0; allnum && i < v->len; i++) {
        allnum = c[i] >= '0' && c[i] <= '9';
        n = n * 10 + (int)(c[i] - '0');
    }
    if (allnum && !(v->len > 1 && c[0] == '0'))
        return n;
    if (v->len == 1 && c[0] >= 'a' && c[0] <= 'z')
        return 1000 + (int)(c[0] - 'a');
    if (v->len == 2 && c[0] >= 'a' && c[0] <= 'z' && c[1] >= 'a' && c[1] <= 'z')
        return 1026 + 26 * (int)(c[0] - 'a') + (int)(c[1] - 'a');
    return -1;
}

static PyObject *
level_pair(State *st, int kind, const Val *v)
{
    int slot = pair_slot(v);
    if (slot >= 0 && st->pair_cache[kind][slot] != NULL)
        return Py_NewRef(st->pair_cache[kind][slot]);
    PyObject *value = val_str(v);
    if (value == NULL)
        return NULL;
    PyObject *pair = PyTuple_Pack(2, st->level_str[kind], value);
    Py_DECREF(value);
    /* looked at again, as in frozen() */
    if (pair != NULL && slot >= 0 && st->pair_cache[kind][slot] == NULL)
        st->pair_cache[kind][slot] = Py_NewRef(pair);
    return pair;
}

static int
rank2(const Item *it, int i)
{
    int k = it->lk[i];
    if (k == L_SENT && i > 0 && (it->lk[i - 1] == L_POINT || it->lk[i - 1] == L_SUBPOINT))
        return 2 * ORDER[it->lk[i - 1]] + 1;
    return 2 * ORDER[k];
}

/* Citation field i = value. Takes the reference to ``value``, also where
 * setting fails; a NULL value is the error of the call that made it. */
static int
set_field(const State *st, PyObject *obj, int i, PyObject *value)
{
    if (value == NULL)
        return -1;
    PyObject *d = st->field_descr[i];
    int r = Py_TYPE(d)->tp_descr_set(d, obj, value);
    Py_DECREF(value);
    return r;
}

/* _freeze(item) */
static PyObject *
freeze(P *p, const Item *it, long group)
{
    const Text *t = &p->t;
    int idx[NLEVELS], n = it->nlev;
    for (int i = 0; i < n; i++)
        idx[i] = i;
    if (n > 1 && !in_level_order(it)) {
        int r[NLEVELS], unordered = 0;
        for (int i = 0; i < n; i++)
            r[i] = rank2(it, i);
        for (int i = 0; i + 1 < n; i++)
            unordered |= r[i] > r[i + 1];
        if (unordered) { /* sorted(..., key=rank), stable */
            for (int i = 1; i < n; i++) {
                int x = idx[i], j = i - 1;
                while (j >= 0 && r[idx[j]] > r[x]) {
                    idx[j + 1] = idx[j];
                    j--;
                }
                idx[j + 1] = x;
            }
        }
    }
    int source = it->source;
    if (it->instrument != NULL && source == SRC_NONE)
        source = SRC_STATED;
    Py_ssize_t start = it->start, end = it->end;
    while (end > start) {
        ch_t c = at(t, end - 1);
        if (c == ' ' || c == '\t' || c == '\n' || c == 0xA0 || c == ',')
            end--;
        else
            break;
    }
    State *st = p->st;
    PyTypeObject *type = (PyTypeObject *)st->citation_type;
    PyObject *obj = type->tp_alloc(type, 0);
    if (obj == NULL)
        return NULL;
    PyObject *levels = PyTuple_New(n);
    if (levels == NULL)
        goto fail;
    for (int i = 0; i < n; i++) {
        int j = idx[i];
        PyObject *pair = level_pair(st, it->lk[j], &it->lv[j]);
        if (pair == NULL) {
            Py_DECREF(levels);
            goto fail;
        }
        PyTuple_SET_ITEM(levels, i, pair);
    }
    uint32_t paren = 0;
    for (int i = 0; i < it->nparen; i++)
        paren |= BIT(it->paren[i]);
    PyObject *src = source == SRC_STATED    ? st->s_stated
                    : source == SRC_CONTEXT ? st->s_context
                    : source == SRC_DEFAULT ? st->s_default
                                            : Py_None;
    /* levels first: set_field takes its reference, also where it fails, and
     * the fields after a failed one are not set */
    if (set_field(st, obj, 3, levels) < 0 ||
        set_field(st, obj, 0, PyLong_FromSsize_t(start)) < 0 ||
        set_field(st, obj, 1, PyLong_FromSsize_t(end)) < 0 ||
        set_field(st, obj, 2, PyUnicode_Substring(p->text, start, end)) < 0 ||
        set_field(st, obj, 4, frozen(st, it->stated)) < 0 ||
        set_field(st, obj, 5, Py_NewRef(it->instrument ? it->instrument : Py_None)) < 0 ||
        set_field(st, obj, 6, Py_NewRef(src)) < 0 ||
        set_field(st, obj, 7, Py_NewRef(it->lang_en > it->lang_de ? st->s_en : st->s_de)) <
            0 ||
        set_field(st, obj, 8,
                  it->has_range ? val_str(&it->range_end) : Py_NewRef(Py_None)) < 0 ||
        set_field(st, obj, 9,
                  Py_NewRef(it->following == 1   ? st->s_f
                            : it->following == 2 ? st->s_ff
                                                 : Py_None)) < 0 ||
        set_field(st, obj, 10, PyBool_FromLong(it->context_bound)) < 0 ||
        set_field(st, obj, 11, frozen(st, paren)) < 0 ||
        set_field(st, obj, 12, PyLong_FromLong(group)) < 0)
        goto fail;
    return obj;
fail:
    Py_DECREF(obj);
    return NULL;
}

/* ---------------------------------------------------- the parser's state */

static int
level_of(const State *st, PyObject *s)
{
    for (int k = 0; k < NLEVELS; k++)
        if (PyUnicode_Compare(s, st->level_str[k]) == 0)
            return k;
    if (PyErr_Occurred())
        PyErr_Clear();
    return -1;
}

/* parser.last_unit into P */
static int
last_unit_read(P *p, PyObject *lu)
{
    p->lu_set = lu != Py_None;
    p->lu_top = -1;
    p->lu_ok = 0;
    p->lu_inst = NULL;
    if (!p->lu_set)
        return OK;
    if (!PyTuple_Check(lu) || PyTuple_GET_SIZE(lu) != 5) {
        PyErr_SetString(PyExc_TypeError, "last_unit: a tuple of five expected");
        return ERR;
    }
    PyObject *top = PyTuple_GET_ITEM(lu, 0), *value = PyTuple_GET_ITEM(lu, 1);
    if (!PyUnicode_Check(top) || !PyUnicode_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "last_unit: strings expected");
        return ERR;
    }
    if (STR_READY(value) < 0)
        return ERR;
    p->lu_top = level_of(p->st, top);
    p->lu_de = PyLong_AsLong(PyTuple_GET_ITEM(lu, 2));
    p->lu_en = PyLong_AsLong(PyTuple_GET_ITEM(lu, 3));
    if (PyErr_Occurred())
        return ERR;
    PyObject *inst = PyTuple_GET_ITEM(lu, 4);
    p->lu_inst = inst == Py_None ? NULL : Py_NewRef(inst);
    Py_ssize_t len = PyUnicode_GET_LENGTH(value);
    if (len <= VAL_MAX) {
        p->lu_val.len = (int)len;
        for (Py_ssize_t i = 0; i < len; i++)
            p->lu_val.c[i] = PyUnicode_READ_CHAR(value, i);
        p->lu_ok = 1;
    }
    return OK;
}

static PyObject *
last_unit_tuple(P *p)
{
    if (!p->lu_set)
        Py_RETURN_NONE;
    PyObject *value = val_str(&p->lu_val);
    if (value == NULL)
        return NULL;
    PyObject *r = Py_BuildValue("(ONllO)", p->st->level_str[p->lu_top], value, p->lu_de,
                                p->lu_en, p->lu_inst ? p->lu_inst : Py_None);
    return r;
}

static int
get_ssize(PyObject *obj, PyObject *name, Py_ssize_t *out)
{
    PyObject *v = PyObject_GetAttr(obj, name);
    if (v == NULL)
        return ERR;
    *out = PyLong_AsSsize_t(v);
    Py_DECREF(v);
    return (*out == -1 && PyErr_Occurred()) ? ERR : OK;
}

static int
set_ssize(PyObject *obj, PyObject *name, Py_ssize_t value)
{
    PyObject *v = PyLong_FromSsize_t(value);
    if (v == NULL)
        return ERR;
    int r = PyObject_SetAttr(obj, name, v);
    Py_DECREF(v);
    return r;
}

/* advance(parser, places, i) -> int
 *
 * Reads the candidates places[i:] in order, as _Parser.run() does, while
 * they are ones it reads; appends their citations to parser.results and
 * keeps parser.pos, .last_end, .last_unit and .group as the Python loop
 * keeps them. Returns the index of the first candidate the Python steps
 * must read (its state untouched), or len(places).
 *
 * ``places`` is read as it was at the call: the Python code this calls
 * (_instrument, act_named_before) could change a list while it is read, so
 * a list is copied to a tuple first (run_compiled passes a tuple, which
 * costs nothing). */
static PyObject *
advance(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3 || !(PyTuple_Check(args[1]) || PyList_Check(args[1]))) {
        PyErr_SetString(PyExc_TypeError, "advance(parser, places: tuple | list, i)");
        return NULL;
    }
    State *st = get_state(module);
    if (st->citation_type == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "_cparser.configure() not called");
        return NULL;
    }
    PyObject *parser = args[0];
    Py_ssize_t i = PyLong_AsSsize_t(args[2]);
    if (i == -1 && PyErr_Occurred())
        return NULL;
    if (i < 0) {
        PyErr_SetString(PyExc_ValueError, "advance(): i must not be negative");
        return NULL;
    }
    PyObject *places =
        PyTuple_Check(args[1]) ? Py_NewRef(args[1]) : PyList_AsTuple(args[1]);
    if (places == NULL)
        return NULL;
    P p;
    memset(&p, 0, sizeof(p));
    p.st = st;
    p.parser = parser;
    PyObject *text = NULL, *deflt = NULL, *results = NULL, *lu = NULL;
    Py_ssize_t pos = 0, group = 0;
    PyObject *ret = NULL;
    text = PyObject_GetAttr(parser, st->a_text);
    deflt = text ? PyObject_GetAttr(parser, st->a_default) : NULL;
    results = deflt ? PyObject_GetAttr(parser, st->a_results) : NULL;
    lu = results ? PyObject_GetAttr(parser, st->a_last_unit) : NULL;
    if (lu == NULL)
        goto done;
    if (!PyUnicode_Check(text) || !PyList_Check(results)) {
        PyErr_SetString(PyExc_TypeError, "parser.text: str, parser.results: list");
        goto done;
    }
    if (STR_READY(text) < 0)
        goto done;
    p.text = text;
    p.deflt = deflt;
    p.t.kind = PyUnicode_KIND(text);
    p.t.data = PyUnicode_DATA(text);
    p.t.n = PyUnicode_GET_LENGTH(text);
    if (get_ssize(parser, st->a_pos, &pos) < 0 ||
        get_ssize(parser, st->a_group, &group) < 0 ||
        get_ssize(parser, st->a_last_end, &p.last_end) < 0 || last_unit_read(&p, lu) < 0)
        goto done;
    Py_ssize_t n = PyTuple_GET_SIZE(places);
    int changed = 0;
    for (; i < n; i++) {
        Py_ssize_t start = PyLong_AsSsize_t(PyTuple_GET_ITEM(places, i));
        if (start == -1 && PyErr_Occurred())
            goto done;
        if (start < pos)
            continue;
        Trig tr;
        m_trigger(&p.t, start, &tr);
        if (tr.kind == TR_NONE)
            continue;
        if (tr.kind == TR_OTHER)
            break;
        Items head_items = {0}, done_items = {0};
        int st = head(&p, &tr, &head_items);
        if (st == OK)
            st = chain_from(&p, &head_items, &done_items);
        if (st != OK) {
            items_free(&head_items);
            items_free(&done_items);
            if (st == HANDOVER) {
                if (snapshot_restore(&p) < 0)
                    goto done;
                break;
            }
            snapshot_drop(&p);
            goto done;
        }
        snapshot_drop(&p);
        items_free(&head_items);
        if (done_items.n == 0) {
            items_free(&done_items);
            continue;
        }
        /* the chain's citations, one group per instrument */
        Item *last = &done_items.v[done_items.n - 1];
        pos = last->end;
        long batch = -1;
        for (Py_ssize_t k = 0; k < done_items.n; k++) {
            Item *it = &done_items.v[k];
            if (it->batch != batch) {
                group++;
                batch = it->batch;
            }
            PyObject *c = freeze(&p, it, (long)group);
            if (c == NULL || PyList_Append(results, c) < 0) {
                Py_XDECREF(c);
                items_free(&done_items);
                goto done;
            }
            Py_DECREF(c);
        }
        p.last_end = last->end;
        p.lu_set = 1;
        p.lu_top = lev_first(last);
        p.lu_val = last->lv[0];
        p.lu_ok = 1;
        p.lu_de = last->lang_de;
        p.lu_en = last->lang_en;
        Py_XINCREF(last->instrument);
        Py_XSETREF(p.lu_inst, last->instrument);
        changed = 1;
        items_free(&done_items);
    }
    if (changed) {
        PyObject *tuple = last_unit_tuple(&p);
        if (tuple == NULL)
            goto done;
        int r = PyObject_SetAttr(parser, st->a_last_unit, tuple);
        Py_DECREF(tuple);
        if (r < 0 || set_ssize(parser, st->a_pos, pos) < 0 ||
            set_ssize(parser, st->a_group, group) < 0 ||
            set_ssize(parser, st->a_last_end, p.last_end) < 0)
            goto done;
    }
    ret = PyLong_FromSsize_t(i);
done:
    snapshot_drop(&p);
    Py_XDECREF(p.instrument_method);
    Py_XDECREF(p.lu_inst);
    Py_XDECREF(text);
    Py_XDECREF(deflt);
    Py_XDECREF(results);
    Py_XDECREF(lu);
    Py_DECREF(places);
    return ret;
}

/* ------------------------------------------------------ candidate scan */

typedef struct {
    Py_ssize_t *v;
    Py_ssize_t n, cap;
    int sorted;
} Places;

static int
places_add(Places *ps, Py_ssize_t x)
{
    if (ps->n == ps->cap) {
        Py_ssize_t cap = ps->cap ? ps->cap * 2 : 256;
        Py_ssize_t *v = PyMem_Realloc(ps->v, sizeof(Py_ssize_t) * cap);
        if (v == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        ps->v = v;
        ps->cap = cap;
    }
    if (ps->n && ps->v[ps->n - 1] >= x)
        ps->sorted = 0;
    ps->v[ps->n++] = x;
    return 0;
}

static int
cmp_ssize(const void *a, const void *b)
{
    Py_ssize_t x = *(const Py_ssize_t *)a, y = *(const Py_ssize_t *)b;
    return (x > y) - (x < y);
}

/* _ORDINAL_BEFORE.search(text, begin, end): where the ordinal starts, or -1 */
static Py_ssize_t
ordinal_before(const Text *t, Py_ssize_t begin, Py_ssize_t end)
{
    static const char *const W[] = {"first", "second", "third", "fourth",
                                    "fifth", "sixth",  "seventh", "eighth",
                                    "ninth", "tenth",  "last",  NULL};
    Py_ssize_t w = end;
    while (w > begin && is_space(at(t, w - 1)))
        w--;
    if (w == end)
        return -1;
    for (int i = 0; W[i]; i++) {
        Py_ssize_t len = (Py_ssize_t)strlen(W[i]);
        if (w - len >= begin && lit(t, w - len, W[i]) == w)
            return w - len;
    }
    return -1;
}

/* one match of _VV_BEFORE at q with endpos ``end``: its end, or -1 */
static Py_ssize_t
vv_before_at(const Text *t, Py_ssize_t q, Py_ssize_t end)
{
    static const char *const W[] = {"Nrn.",  "Nrn",   "Nr.",  "Nr",  "Nummern",
                                    "Nummer", "Nos.", "No.",  "nos.", "no.",
                                    NULL};
    if (is_word(at(t, q - 1)) || !is_word(q < end ? at(t, q) : -1))
        return -1;
    for (int i = 0; W[i]; i++) {
        Py_ssize_t e = lit(t, q, W[i]);
        if (e < 0 || e > end)
            continue;
        while (e < end && is_space(at(t, e)))
            e++;
        int k = 0;
        while (k < 4 && e + k < end && is_digit(at(t, e + k)))
            k++;
        if (k == 4)
            return e + 4;
    }
    return -1;
}

/* the scans of _CANDIDATE_SCANS at one character that may start a literal */
static int
on_char(const Text *t, Py_ssize_t s, Py_UCS4 c, Places *ps, Py_ssize_t *vv_resume)
{
    switch (c) {
    case 0xA7:
        return places_add(ps, s);
    case 'A':
        if (lit(t, s + 1, "rt") >= 0 || lit(t, s + 1, "nh") >= 0 ||
            lit(t, s + 1, "nnex") >= 0 || lit(t, s + 1, "bs") >= 0 ||
            lit(t, s + 1, "nlage") >= 0 || lit(t, s + 1, "NNEX") >= 0)
            return places_add(ps, s);
        return 0;
    case 'E':
        if (lit(t, s + 1, "rw") >= 0 || lit(t, s + 1, "G") >= 0)
            return places_add(ps, s);
        return 0;
    case 'S':
        return lit(t, s + 1, "ec") >= 0 ? places_add(ps, s) : 0;
    case 'U':
        if (lit(t, s + 1, "Abs") >= 0 || lit(t, s + 1, "nterabs") >= 0)
            return places_add(ps, s);
        return 0;
    case 'P':
        return lit(t, s + 1, "aragra") >= 0 ? places_add(ps, s) : 0;
    case 'p':
        if (lit(t, s + 1, "oint") >= 0)
            return places_add(ps, s);
        if (lit(t, s + 1, "aragraph") >= 0) {
            if (places_add(ps, s) < 0)
                return -1;
            /* "second subparagraph of Article 5" starts at its ordinal */
            if (s >= 3 && lit(t, s - 3, "sub") == s) {
                Py_ssize_t om = ordinal_before(t, s - 15 > 0 ? s - 15 : 0, s - 3);
                if (om >= 0)
                    return places_add(ps, om);
            }
        }
        return 0;
    case 'c':
        /* "recital", "section": the word starts two before its "c" */
        if (s >= 2 && (lit(t, s + 1, "ital") >= 0 || lit(t, s + 1, "tion") >= 0) &&
            at(t, s - 1) == 'e')
            return places_add(ps, s - 2);
        return 0;
    case 'V': {
        /* finditer: the matches of "VV|Vergütungsverzeichnis" do not overlap */
        if (s < *vv_resume)
            return 0;
        Py_ssize_t e = lit(t, s, "VV");
        if (e < 0)
            e = lit(t, s, "Vergütungsverzeichnis");
        if (e < 0)
            return 0;
        *vv_resume = e;
        /* "Nr. 2300 VV RVG" starts before the "VV" that finds it */
        Py_ssize_t q = s - 60 > 0 ? s - 60 : 0;
        while (q < s) {
            Py_ssize_t me = vv_before_at(t, q, s);
            if (me >= 0) {
                if (places_add(ps, q) < 0)
                    return -1;
                q = me;
            }
            else
                q++;
        }
        return 0;
    }
    }
    return 0;
}

/* A literal can start at s only with one of these pairs of characters (the
 * first of a literal and the one after it; "§" with any): the scan looks
 * into a table of pairs once per character, without a branch until one
 * matches; the last character is looked at alone (only "§" may start a
 * literal there). Built once per module object, by exec. */
static void
scan_pair_table(unsigned char pair[256][16])
{
    static const char *const PAIRS[] = {"Ar", "An", "Ab", "AN", "Er", "EG",
                                        "Se", "UA", "Un", "Pa", "po", "pa",
                                        "ci", "ct", "VV", "Ve", NULL};
    memset(pair, 0, 256 * 16);
    for (int i = 0; PAIRS[i]; i++) {
        unsigned char a = (unsigned char)PAIRS[i][0], b = (unsigned char)PAIRS[i][1];
        pair[a][b >> 3] |= (unsigned char)(1u << (b & 7));
    }
    memset(pair[0xA7], 0xFF, sizeof pair[0xA7]);
}

/* _candidates(text): every place where a citation may start, ascending */
static PyObject *
candidates(PyObject *module, PyObject *arg)
{
    if (!PyUnicode_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "candidates(text: str)");
        return NULL;
    }
    if (STR_READY(arg) < 0)
        return NULL;
    Text tt = {PyUnicode_KIND(arg), PyUnicode_DATA(arg), PyUnicode_GET_LENGTH(arg)};
    const Text *t = &tt;
    Places ps = {NULL, 0, 0, 1};
    Py_ssize_t vv_resume = 0;
    Py_ssize_t n = t->n;
    /* one look into the table of pairs per character (scan_pair_table) */
    unsigned char(*pair)[16] = get_state(module)->scan_pair;
#define SCAN_LOOP(TYPE)                                                          \
    {                                                                            \
        const TYPE *d = (const TYPE *)t->data;                                   \
        for (Py_ssize_t s = 0; s + 1 < n; s++) {                                 \
            Py_UCS4 c = d[s], c2 = d[s + 1];                                     \
            c = c > 0xFF ? 0 : c;                                                \
            c2 = c2 > 0x7F ? 0 : c2;                                             \
            if (!(pair[c][c2 >> 3] & (1u << (c2 & 7))))                          \
                continue;                                                        \
            if (on_char(t, s, d[s], &ps, &vv_resume) < 0)                        \
                goto fail;                                                       \
        }                                                                        \
        if (n > 0 && d[n - 1] == 0xA7 && places_add(&ps, n - 1) < 0)            \
            goto fail;                                                           \
    }
    if (t->kind == PyUnicode_1BYTE_KIND)
        SCAN_LOOP(Py_UCS1)
    else if (t->kind == PyUnicode_2BYTE_KIND)
        SCAN_LOOP(Py_UCS2)
    else
        SCAN_LOOP(Py_UCS4)
#undef SCAN_LOOP
    if (!ps.sorted && ps.n > 1)
        qsort(ps.v, ps.n, sizeof(Py_ssize_t), cmp_ssize);
    PyObject *out = PyList_New(0);
    if (out == NULL)
        goto fail;
    for (Py_ssize_t k = 0; k < ps.n; k++) {
        if (k && ps.v[k] == ps.v[k - 1])
            continue;
        PyObject *x = PyLong_FromSsize_t(ps.v[k]);
        if (x == NULL || PyList_Append(out, x) < 0) {
            Py_XDECREF(x);
            Py_DECREF(out);
            goto fail;
        }
        Py_DECREF(x);
    }
    PyMem_Free(ps.v);
    return out;
fail:
    PyMem_Free(ps.v);
    return NULL;
}

/* ---------------------------------------------------------------- module */

/* The names of Citation's fields in their order, as freeze() sets them: a
 * Citation whose fields differ (citation.py changed, the extension not
 * rebuilt) is refused by configure(). */
static const char *const FIELD_NAMES[NFIELDS] = {
    "start",      "end",       "raw",           "levels",        "stated",
    "instrument", "instrument_source", "lang",  "range_end",     "following",
    "context_bound", "parenthesised", "group",
};

/* configure(Citation, field_names, act_named_before, name_first_chars) */
static PyObject *
configure(PyObject *module, PyObject *args)
{
    State *st = get_state(module);
    PyObject *cls, *fields, *act, *first;
    if (!PyArg_ParseTuple(args, "O!O!OU", &PyType_Type, &cls, &PyTuple_Type, &fields,
                          &act, &first))
        return NULL;
    if (PyTuple_GET_SIZE(fields) != NFIELDS) {
        PyErr_Format(PyExc_ValueError,
                     "Citation has %zd fields, the compiled reader was built for %d: "
                     "rebuild it (make install)",
                     PyTuple_GET_SIZE(fields), NFIELDS);
        return NULL;
    }
    for (int i = 0; i < NFIELDS; i++) {
        PyObject *name = PyTuple_GET_ITEM(fields, i);
        if (!PyUnicode_Check(name) ||
            PyUnicode_CompareWithASCIIString(name, FIELD_NAMES[i]) != 0) {
            PyErr_Format(PyExc_ValueError,
                         "Citation field %d is %R, the compiled reader was built for "
                         "'%s': rebuild it (make install)",
                         i, name, FIELD_NAMES[i]);
            return NULL;
        }
    }
    if (STR_READY(first) < 0)
        return NULL;
    if (PyUnicode_GET_LENGTH(first) > 128) {
        PyErr_SetString(PyExc_ValueError, "too many first characters");
        return NULL;
    }
    /* every check before anything is kept: a configure() that fails leaves
     * the module as it was */
    PyObject *dict = ((PyTypeObject *)cls)->tp_dict;
    PyObject *descr[NFIELDS];
    for (int i = 0; i < NFIELDS; i++) {
        PyObject *d = PyDict_GetItemWithError(dict, PyTuple_GET_ITEM(fields, i));
        if (d == NULL) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "a field without a slot");
            return NULL;
        }
        if (Py_TYPE(d)->tp_descr_set == NULL) {
            PyErr_SetString(PyExc_ValueError, "a field's slot cannot be set");
            return NULL;
        }
        descr[i] = d;
    }
    for (int i = 0; i < NFIELDS; i++)
        Py_XSETREF(st->field_descr[i], Py_NewRef(descr[i]));
    Py_XSETREF(st->citation_type, Py_NewRef(cls));
    Py_XSETREF(st->act_named, Py_NewRef(act));
    st->n_name_first = (int)PyUnicode_GET_LENGTH(first);
    for (int i = 0; i < st->n_name_first; i++)
        st->name_first[i] = PyUnicode_READ_CHAR(first, i);
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"candidates", (PyCFunction)candidates, METH_O,
     "candidates(text) -> list[int]: every place where a citation may start."},
    {"advance", (PyCFunction)(void (*)(void))advance, METH_FASTCALL,
     "advance(parser, places, i) -> int: read candidates from places[i] on."},
    {"configure", (PyCFunction)configure, METH_VARARGS,
     "configure(Citation, fields, act_named_before, name_first_chars)."},
    {NULL, NULL, 0, NULL},
};

static int
intern(PyObject **slot, const char *s)
{
    *slot = PyUnicode_InternFromString(s);
    return *slot == NULL ? -1 : 0;
}

static int
module_exec(PyObject *module)
{
    State *st = get_state(module);
    for (int k = 0; k < NLEVELS; k++)
        if (intern(&st->level_str[k], LEVEL_NAMES[k]) < 0)
            return -1;
    if (intern(&st->s_stated, "stated") < 0 || intern(&st->s_context, "context") < 0 ||
        intern(&st->s_default, "default") < 0 || intern(&st->s_de, "de") < 0 ||
        intern(&st->s_en, "en") < 0 || intern(&st->s_f, "f") < 0 ||
        intern(&st->s_ff, "ff") < 0 || intern(&st->a_instrument, "_instrument") < 0 ||
        intern(&st->a_text, "text") < 0 || intern(&st->a_default, "default") < 0 ||
        intern(&st->a_results, "results") < 0 || intern(&st->a_pos, "pos") < 0 ||
        intern(&st->a_last_end, "last_end") < 0 ||
        intern(&st->a_last_unit, "last_unit") < 0 || intern(&st->a_group, "group") < 0 ||
        intern(&st->a_last_eu, "last_eu") < 0 ||
        intern(&st->a_eu_scanned, "_eu_scanned") < 0 ||
        intern(&st->a_eu_named, "_eu_named") < 0)
        return -1;
    scan_pair_table(st->scan_pair);
    return 0;
}

static int
module_traverse(PyObject *module, visitproc visit, void *arg)
{
    State *st = get_state(module);
    if (st == NULL)
        return 0;
    Py_VISIT(st->citation_type);
    for (int i = 0; i < NFIELDS; i++)
        Py_VISIT(st->field_descr[i]);
    Py_VISIT(st->act_named);
    return 0;
}

static int
module_clear(PyObject *module)
{
    State *st = get_state(module);
    if (st == NULL)
        return 0;
    for (int k = 0; k < NLEVELS; k++)
        Py_CLEAR(st->level_str[k]);
    PyObject **strings[] = {
        &st->s_stated,    &st->s_context,    &st->s_default,   &st->s_de,
        &st->s_en,        &st->s_f,          &st->s_ff,        &st->a_instrument,
        &st->a_text,      &st->a_default,    &st->a_results,   &st->a_pos,
        &st->a_last_end,  &st->a_last_unit,  &st->a_group,     &st->a_last_eu,
        &st->a_eu_scanned, &st->a_eu_named,
    };
    for (size_t i = 0; i < sizeof(strings) / sizeof(strings[0]); i++)
        Py_CLEAR(*strings[i]);
    Py_CLEAR(st->citation_type);
    for (int i = 0; i < NFIELDS; i++)
        Py_CLEAR(st->field_descr[i]);
    Py_CLEAR(st->act_named);
    for (uint32_t m = 0; m < (1u << NLEVELS); m++)
        Py_CLEAR(st->frozen_cache[m]);
    for (int k = 0; k < NLEVELS; k++)
        for (int i = 0; i < PAIR_SLOTS; i++)
            Py_CLEAR(st->pair_cache[k][i]);
    return 0;
}

static void
module_free(void *module)
{
    module_clear((PyObject *)module);
}

static PyModuleDef_Slot module_slots[] = {
    {Py_mod_exec, (void *)module_exec},
#ifdef Py_mod_multiple_interpreters
    /* 3.12+: all state is the module object's (see State), so it can be
     * imported in any interpreter, also one with a GIL of its own */
    {Py_mod_multiple_interpreters, Py_MOD_PER_INTERPRETER_GIL_SUPPORTED},
#endif
    {0, NULL},
};

static struct PyModuleDef module_def = {
    .m_base = PyModuleDef_HEAD_INIT,
    .m_name = "_cparser",
    .m_doc = "The citation parser's hot path in C (see "
             "citations/domain/parser_compiled.py).",
    .m_size = sizeof(State),
    .m_methods = methods,
    .m_slots = module_slots,
    .m_traverse = module_traverse,
    .m_clear = module_clear,
    .m_free = module_free,
};

PyMODINIT_FUNC
PyInit__cparser(void)
{
    return PyModuleDef_Init(&module_def);
}
