"""What tesseract read, character by character, and the corrections a reader makes to it.

tesseract's hOCR output (``hocr_char_boxes``, ``lstm_choice_mode=2``) gives every word its box and
confidence, and every character its box, confidence and the other symbols the recogniser weighed for
it. The ocr app (apps/ocr.py) reads a page from these words; before, a few readings that the
glyph on the page contradicts are corrected, each by a rule about letter shapes that holds in any
font (see :func:`correct`):

- a "$" whose ink does not stand out above or below the digits after it has no bar through it: it
  is the letter S (ID codes such as S1001 in a small bitmap font are read "$1001");
- two different symbols read from one glyph (their boxes overlap, and each is the other's
  runner-up) are that glyph read twice: the more confident reading is kept ("Bob@" read "BobG@");
- a period in a box as tall as the word, with no dot of its own, is a neighbour's edge ("3..78");
- an S with a flat bar for a top, weighed as 5 too, is a 5 ("X5" read "XS");
- a word read where the page holds no ink is dropped; an address read as two words is joined.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

from PIL import Image

HOCR_CONFIG = "-c hocr_char_boxes=1 -c lstm_choice_mode=2"


@dataclass
class Char:
    text: str
    box: tuple[int, int, int, int]  # left, top, right, bottom in the image read
    conf: float
    choices: list[tuple[str, float]] = field(default_factory=list)  # the recogniser's candidates, best first


@dataclass
class Word:
    box: tuple[int, int, int, int]
    conf: float
    block: int
    par: int
    line: int
    chars: list[Char] = field(default_factory=list)
    raw: str = ""  # the word as hOCR gives it, when it has no character boxes

    @property
    def text(self) -> str:
        return "".join(c.text for c in self.chars) if self.chars else self.raw


def _title(title: str | None) -> dict[str, list[str]]:
    out = {}
    for part in (title or "").split(";"):
        bits = part.split()
        if bits:
            out[bits[0]] = bits[1:]
    return out


class _Parser(HTMLParser):
    LINES = {"ocr_line", "ocr_caption", "ocr_header", "ocr_textfloat"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.words: list[Word] = []
        self.block = self.par = self.line = 0
        self._stack: list[str] = []  # the role of every open element: where text goes
        self._word: Word | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls, ident, title = a.get("class", ""), a.get("id", ""), _title(a.get("title"))
        role = ""
        if cls == "ocr_carea":
            self.block += 1
        elif cls == "ocr_par":
            self.par += 1
        elif cls in self.LINES:
            self.line += 1
        elif cls == "ocrx_word":
            box = tuple(int(v) for v in title.get("bbox", [0, 0, 0, 0]))
            conf = float((title.get("x_wconf") or [-1])[0])
            self._word = Word(box, conf, self.block, self.par, self.line)
            self.words.append(self._word)
            role = "word"
        elif cls == "ocrx_cinfo" and self._word is not None:
            if "x_bboxes" in title:
                self._word.chars.append(Char("", tuple(int(v) for v in title["x_bboxes"]),
                                             float((title.get("x_conf") or [0])[0])))
                role = "char"
            elif ident.startswith("choice") and self._word.chars:
                self._word.chars[-1].choices.append(["", float((title.get("x_confs") or [0])[0])])
                role = "choice"
        self._stack.append(role)

    def handle_endtag(self, tag):
        if self._stack:
            self._stack.pop()

    def handle_data(self, data):
        if not self._stack or self._word is None:
            return
        role = self._stack[-1]
        if role == "char":
            self._word.chars[-1].text += data.strip()
        elif role == "choice":
            self._word.chars[-1].choices[-1][0] += data.strip()
        elif role == "word":
            self._word.raw += data.strip()


def parse_hocr(hocr: str) -> list[Word]:
    """The words of an hOCR page, in tesseract's reading order, with their characters."""
    parser = _Parser()
    parser.feed(hocr)
    words = []
    for w in parser.words:
        for c in w.chars:
            c.choices = [(t, conf) for t, conf in c.choices if t]
        w.chars = [c for c in w.chars if c.text]
        if w.text.strip():
            words.append(w)
    return words


# ---- the ink of a glyph ----------------------------------------------------------------------------

class Ink:
    """Where the ink lies in a grayscale image (dark text on a light ground, as the app prepares it)."""

    MIN_CONTRAST = 60  # a box whose darkest and lightest pixels differ less holds no clear glyph

    def __init__(self, image: Image.Image):
        self.image = image if image.mode == "L" else image.convert("L")

    def mask(self, box, level: float = 0.5) -> Image.Image | None:
        """The box's ink (255) on nothing (0): the pixels darker than ``level`` of the way from its
        darkest pixel to its ground (0.5: half-way; higher: the faint edges of smoothed strokes too)."""
        l, t, r, b = box
        l, t = max(0, l), max(0, t)
        r, b = min(self.image.width, r), min(self.image.height, b)
        if r - l < 1 or b - t < 1:
            return None
        crop = self.image.crop((l, t, r, b))
        lo, hi = crop.getextrema()
        if hi - lo < self.MIN_CONTRAST:
            return None
        mid = lo + level * (hi - lo)
        return crop.point(lambda v: 255 if v < mid else 0)

    def column_tops(self, box, dark: int) -> list[int | None]:
        """For each column of the box, the row (image coordinates) of its highest pixel darker than
        ``dark``; None for a column without one."""
        l, t, r, b = max(0, box[0]), max(0, box[1]), min(self.image.width, box[2]), min(self.image.height, box[3])
        if r <= l or b <= t:
            return []
        w = r - l
        data = self.image.crop((l, t, r, b)).tobytes()
        return [next((t + y for y in range(b - t) if data[y * w + x] < dark), None) for x in range(w)]

    def glyphs(self, box, level: float = 0.5) -> list[tuple[int, int, int, int]]:
        """The ink boxes (image coordinates) of the runs of inked columns in ``box``, left to right:
        the glyphs of a word, where they do not touch."""
        mask = self.mask(box, level)
        if mask is None:
            return []
        w, h = mask.size
        data = mask.tobytes()
        inked = [any(data[y * w + x] for y in range(h)) for x in range(w)]
        runs, start = [], None
        for x, on in enumerate(inked + [False]):
            if on and start is None:
                start = x
            elif not on and start is not None:
                runs.append((start, x))
                start = None
        out = []
        for x0, x1 in runs:
            bbox = mask.crop((x0, 0, x1, h)).getbbox()
            if bbox:
                out.append((box[0] + x0, box[1] + bbox[1], box[0] + x1, box[1] + bbox[3]))
        return out


# ---- corrections -------------------------------------------------------------------------------------

FAINT_LEVEL = 0.8


def _dollar_without_bar(word: Word, ink: Ink) -> str | None:
    """A word read as "$" and digits whose first glyph does not stand out above or below the digits:
    a dollar sign's bar crosses its S and sticks out beyond it, above the digits' tops or below their
    feet, in every typeface; an S has no bar and stands no taller than a digit. Such a "$" is an S
    (a lower-case s when it stands no higher than the digits' middle)."""
    text = word.text
    if not re.match(r"\$\d", text) or not word.chars:
        return None
    # faint ink counts: a smoothed font draws the bar's ends in light grey
    glyphs = ink.glyphs(word.box, FAINT_LEVEL)
    if len(glyphs) < 2:
        return None
    first, rest = glyphs[0], glyphs[1:]
    # the rest of the word: its digits, their tops and feet (a comma or a period below them is left out)
    tall = [g for g in rest if g[3] - g[1] >= 0.6 * max(r[3] - r[1] for r in rest)]
    # (a digit that touches a comma reaches lower: the digits' feet are the highest of them)
    top = sorted(g[1] for g in tall)[len(tall) // 2]
    foot = min(g[3] for g in tall)
    height = foot - top
    if height < 6:  # too small to tell a bar
        return None
    # by any pixel: where it is doubtful, the dollar sign tesseract read is kept
    if first[1] < top or first[3] > foot:
        return None  # it does stand out: a dollar sign
    if first[3] - first[1] < 0.5 * height:
        return None  # a small mark, not a letter
    letter = "S" if first[1] - top <= 0.25 * height else "s"
    word.chars[0].text = letter
    return f"{text!r}: '$' without a bar read '{letter}'"


RUNNER_UP = 50  # a runner-up symbol this confident is a real alternative reading


def _glyph_read_twice(word: Word, ink: Ink) -> str | None:
    """Two neighbouring characters, different symbols, whose boxes overlap and each of which has the
    other as a confident runner-up: the recogniser emitted one glyph twice. The more confident of
    the two is kept."""
    chars = word.chars
    for i in range(len(chars) - 1):
        a, b = chars[i], chars[i + 1]
        if a.text == b.text or b.box[0] >= a.box[2]:
            continue
        a_alt = max((c for t, c in a.choices if t == b.text), default=0)
        b_alt = max((c for t, c in b.choices if t == a.text), default=0)
        if a_alt >= RUNNER_UP and b_alt >= RUNNER_UP:
            before = word.text
            del chars[i if a.conf < b.conf else i + 1]
            return f"{before!r}: one glyph read twice, kept {word.text!r}"
    return None


# ---- letters told by their height and their stems -----------------------------------------------------
# Letters whose capital has the same shape as the small letter (c o s u v w x z) are told apart only by
# height: a small letter stands at the x-height, a capital reaches the height of the capitals and
# digits. In a small bitmap font tesseract often gets this wrong ("Calls" read "calls", "XYZ" "xyz").
# Likewise an n has two stems and an m three: in a fixed-pitch bitmap font an n is read "m" and two
# touching n's ("nn") are read as one "m". Both are measured on the ink, within each character's own
# columns (tesseract's character box, where it is not wider than a character of the line).
SAME_SHAPE = set("cosuvwxz")  # (and an "m" as tall as a capital is an M: no small m is)
CAPITALS = set("ABDEFGHIJKLMNPQRT")  # capitals whose small letter has another shape
CAP_REFERENCE = set("ABDEFGHIJKLMNPQRT0123456789bdfhkl")  # tops at the capitals' height
X_REFERENCE = set("acemnorsuvwxz")  # tops at the x-height


def _regions(word: Word, width: float) -> list[tuple[int, int] | None]:
    """Each character's columns: its box, cut back where a neighbour's box overlaps it; None where the
    box is too wide to be one character's (tesseract's boxes sometimes span several)."""
    chars = word.chars
    out = []
    for i, c in enumerate(chars):
        l, r = c.box[0], c.box[2]
        if i > 0 and chars[i - 1].box[2] - chars[i - 1].box[0] <= 1.3 * width:
            l = max(l, chars[i - 1].box[2])
        if i + 1 < len(chars) and chars[i + 1].box[2] - chars[i + 1].box[0] <= 1.3 * width:
            r = min(r, chars[i + 1].box[0])
        out.append((l, r) if 0 < r - l <= 2.3 * width else None)
    return out


def _stems(mask: Image.Image, top: int, foot: int) -> int | None:
    """How many vertical strokes cross the lower half of the x-height band (rows top..foot of
    ``mask``): the most common number of ink runs on those rows."""
    w, h = mask.size
    data = mask.tobytes()
    counts = []
    for y in range(top + (foot - top) // 2, min(h, foot - (foot - top) // 8)):
        row = data[y * w:(y + 1) * w]
        runs = sum(1 for x in range(w) if row[x] and (x == 0 or not row[x - 1]))
        counts.append(runs)
    return max(set(counts), key=counts.count) if counts else None


N_RUNNER_UP = 20  # an "m" read with two stems becomes an n only if tesseract weighed n this much


def _top(mask: Image.Image, bbox) -> int:
    """The height most of a glyph's columns reach: the row that at least 30% of its inked columns
    reach (a neighbour's stroke bleeding into one or two edge columns does not count)."""
    w, h = mask.size
    data = mask.tobytes()
    tops = sorted(next(y for y in range(h) if data[y * w + x]) for x in range(bbox[0], bbox[2])
                  if any(data[y * w + x] for y in range(h)))
    return tops[int(0.3 * (len(tops) - 1))] if tops else bbox[1]


def correct_lines(words: list[Word], ink: Ink) -> list[str]:
    """The height and stem rules, line by line (the heights of capitals and small letters are the
    line's)."""
    notes = []
    by_line: dict[tuple, list[Word]] = {}
    for w in words:
        if w.chars:
            by_line.setdefault((w.block, w.par, w.line), []).append(w)
    for line in by_line.values():
        widths = sorted(c.box[2] - c.box[0] for w in line for c in w.chars if c.text.isalnum())
        if not widths:
            continue
        width = widths[len(widths) // 2]
        measured = []  # (word, char, height reached, ink foot, mask, region width)
        for w in line:
            regions = _regions(w, width)
            for c, reg in zip(w.chars, regions):
                if reg is None or len(c.text) != 1:
                    continue
                mask = ink.mask((reg[0], w.box[1], reg[1], w.box[3]))
                bbox = mask.getbbox() if mask is not None else None
                if bbox:
                    measured.append((w, c, w.box[1] + _top(mask, bbox), w.box[1] + bbox[3], mask, reg[1] - reg[0]))
        # the capitals' height: from capital letters (in many fonts digits and ascenders stand taller)
        caps = sorted(m[2] for m in measured if m[1].text in CAPITALS) or \
            sorted(m[2] for m in measured if m[1].text in CAP_REFERENCE)
        smalls = sorted(m[2] for m in measured if m[1].text in X_REFERENCE)
        feet = sorted(m[3] for m in measured if m[1].text in X_REFERENCE | CAP_REFERENCE)
        if not caps or len(smalls) < 3:
            continue
        cap_top, x_top, foot = caps[len(caps) // 2], smalls[len(smalls) // 2], feet[len(feet) // 2]
        gap = x_top - cap_top
        if gap < max(2, 0.1 * (foot - cap_top)):
            continue  # the line's capitals and small letters cannot be told apart by height
        originals = {id(w): (w, w.text, [c.text for c in w.chars]) for w in line}
        for w, c, top, bottom, mask, region in measured:
            letter = c.text
            if letter in SAME_SHAPE | {"y", "m"} and top <= cap_top + gap / 2 and region >= 0.5 * width:
                if letter != "y" or bottom <= foot + 1:  # a capital Y has no descender
                    c.text = letter.upper()
            elif letter == "m" and top >= x_top - 0.25 * gap:
                stems = _stems(mask, x_top - w.box[1], foot - w.box[1])
                n_weighed = max((v for t, v in c.choices if t == "n"), default=0) >= N_RUNNER_UP
                if stems == 2 and n_weighed and 0.7 * width <= region <= 1.3 * width:
                    c.text = "n"  # an n: two stems (tesseract weighed it too)
                elif stems == 4 and region >= 1.6 * width:
                    c.text = "nn"  # two touching n's, two characters wide
        for w, before, texts in originals.values():
            if w.text == before:
                continue
            if not _cased(w.text):  # "MOdel": a measurement went wrong, not the reading
                for c, t in zip(w.chars, texts):
                    c.text = t
            else:
                notes.append(f"{before!r}: read {w.text!r} by the letters' height and stems")
    return notes


def _cased(word: str) -> bool:
    """Whether a word's letters are cased as words are written: small, Capitalised or CAPITALS."""
    letters = "".join(ch for ch in word if ch.isalpha())
    return not letters or letters.islower() or letters.isupper() or (letters[0].isupper() and letters[1:].islower())


def _tall_dot(word: Word, ink: Ink) -> str | None:
    """A period whose box is as tall as the word, with no dot of its own: a period is a dot at the
    foot of the line. One beside another period ("3..78"), or one between two digits with no column
    whose ink lies only low down ("3.7.8"), is a neighbouring glyph's edge read again as a dot, and
    is dropped.
    (tesseract often gives a real period a tall box: its dot's columns are then found in it.)"""
    chars = word.chars
    l, top, r, foot = word.box
    height = foot - top
    for i, c in enumerate(chars):
        if c.text != "." or height < 8 or c.box[3] - c.box[1] <= 0.5 * height:
            continue
        neighbours = chars[max(0, i - 1):i] + chars[i + 1:i + 2]
        doubled = any(n.text == "." and n.box[3] - n.box[1] <= 0.5 * height for n in neighbours)
        in_number = len(neighbours) == 2 and all(n.text.isdigit() for n in neighbours)
        if not doubled and not in_number:
            continue
        # a dot's columns hold ink only in the lower half; a neighbour's columns reach higher. The
        # dot may stand in the gap beside the box tesseract gave it.
        left = min(c.box[0], neighbours[0].box[2]) if i > 0 else c.box[0]
        right = max(c.box[2], chars[i + 1].box[0]) if i + 1 < len(chars) else c.box[2]
        lo, hi = ink.image.crop(word.box).getextrema()
        tops = ink.column_tops((left, top, right, foot), lo + FAINT_LEVEL * (hi - lo))
        dot = any(y is not None and y >= top + height / 2 for y in tops)
        if doubled or not dot:
            before = word.text
            del chars[i]
            return f"{before!r}: a period as tall as the word with no dot of its own, kept {word.text!r}"
    return None


def _runs(mask: Image.Image, y: int, data: bytes | None = None) -> list[tuple[int, int]]:
    """The ink runs [start, end) of row ``y`` of a mask (``data``: its bytes, when already at hand)."""
    w = mask.width
    row = (data if data is not None else mask.tobytes())[y * w:(y + 1) * w]
    runs, start = [], None
    for x in range(w + 1):
        on = x < w and row[x]
        if on and start is None:
            start = x
        elif not on and start is not None:
            runs.append((start, x))
            start = None
    return runs


def _five_read_as_s(word: Word, ink: Ink) -> str | None:
    """A "5" read as "S" ("X5" read "XS"), where tesseract weighed "5" too: a 5 starts with a flat bar
    (its top rows one straight run across most of the glyph), and right under the bar there is only
    the stem on the left; an S starts with a curve, and the end of its arc (or its serif) hangs on
    the right under the top."""
    changed = False
    before = word.text
    for i, c in enumerate(word.chars):
        if c.text != "S" or not any(t == "5" for t, _ in c.choices):
            continue
        mask = ink.mask((c.box[0], word.box[1], c.box[2], word.box[3]))
        bbox = mask.getbbox() if mask is not None else None
        if not bbox or bbox[3] - bbox[1] < 10:
            continue
        glyph = mask.crop(bbox)
        w, h = glyph.size
        data = glyph.tobytes()
        bar = 0
        while bar < h // 4 and len(runs := _runs(glyph, bar, data)) == 1 and runs[0][1] - runs[0][0] >= 0.55 * w:
            bar += 1
        if bar < 1 or bar >= h // 4:
            continue  # no flat top (or a block, not a glyph)
        below = [_runs(glyph, y, data) for y in range(bar, bar + max(2, round(0.12 * h)))]
        if all(r and r[-1][1] <= 0.5 * w for r in below):
            c.text = "5"
            changed = True
    return f"{before!r}: a flat-topped S is a 5, read {word.text!r}" if changed else None


RULES = (_glyph_read_twice, _dollar_without_bar, _tall_dot, _five_read_as_s)


# ---- words: read where the page holds no ink, or torn apart ----------------------------------------------

def drop_inkless(words: list[Word], ink: Ink) -> list[str]:
    """Words whose box holds no clear glyph (darkest and lightest pixel alike): tesseract read the
    blank space between two columns as marks ("GPA: =. 3.78"); they are dropped."""
    notes = []
    for w in list(words):
        if ink.mask(w.box) is None:
            words.remove(w)
            notes.append(f"{w.text!r}: no ink where it was read, dropped")
    return notes


_DOMAIN = re.compile(r"@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}[.,;:)]?")
_LOCAL = re.compile(r"(?:.*[\s:(<])?[A-Za-z0-9._%+-]*[A-Za-z0-9]")


def join_addresses(words: list[Word]) -> list[str]:
    """An e-mail address read as two words ("john.doe @example.com"): the word that is "@" and a
    domain name is joined to the word before it on the same line, when that one holds no "@" and
    ends in a character an address's local part may end in. An address holds no space, and in a
    small font the "@" stands apart from its neighbours by as much as a space."""
    notes = []
    i = 1
    while i < len(words):
        a, b = words[i - 1], words[i]
        same_line = (a.block, a.par, a.line) == (b.block, b.par, b.line)
        if same_line and _DOMAIN.fullmatch(b.text) and "@" not in a.text and _LOCAL.fullmatch(a.text):
            before = f"{a.text} {b.text}"
            a.chars += b.chars
            a.raw += b.raw
            a.box = (min(a.box[0], b.box[0]), min(a.box[1], b.box[1]), max(a.box[2], b.box[2]),
                     max(a.box[3], b.box[3]))
            a.conf = min(a.conf, b.conf)
            del words[i]
            notes.append(f"{before!r}: an address holds no space, read {a.text!r}")
            continue
        i += 1
    return notes


# ---- fixed pitch: a word wider than its letters ---------------------------------------------------------
# In a fixed-pitch (typewriter) font every character takes one cell of the same width, so a word's width
# tells how many characters it has. Two touching n's of a small bitmap font are read as one "m"
# ("Personnel" read "Persomel"): the word is then a cell wider than its reading, and the cells the "m"
# stands in hold four stems, not three.
PITCH_AGREEMENT = 0.8  # the share of word spacings that must fit one pitch for a page to be fixed-pitch


def _pitch(words: list[Word]) -> float | None:
    """The cell width of a fixed-pitch page: from consecutive words of a line, whose left edges lie
    (letters + 1 space) cells apart; None when the spacings do not agree on one width."""
    by_line: dict[tuple, list[Word]] = {}
    for w in words:
        by_line.setdefault((w.block, w.par, w.line), []).append(w)
    pitches = []
    for line in by_line.values():
        for a, b in zip(line, line[1:]):
            if a.conf >= 80 and b.box[0] > a.box[2]:
                pitches.append((b.box[0] - a.box[0]) / (len(a.text) + 1))
    if len(pitches) < 5:
        return None
    pitches.sort()
    pitch = pitches[len(pitches) // 2]
    agree = sum(abs(p - pitch) <= 0.06 * pitch for p in pitches)
    if pitch < 6 or agree < PITCH_AGREEMENT * len(pitches):
        return None
    # and the words' widths hold as many cells as they have letters (in a proportional font, a word
    # of capitals or of m's and w's is wider than one of i's and l's)
    sure = [w for w in words if w.conf >= 80 and len(w.text) >= 2]
    fit = sum(_cells(w, pitch) == len(w.text) for w in sure)
    return pitch if len(sure) >= 5 and fit >= PITCH_AGREEMENT * len(sure) else None


def _cells(word: Word, pitch: float) -> int:
    """How many cells a word spans: its last glyph's ink ends between a quarter of its cell (":")
    and a little past it (an "m")."""
    return math.floor((word.box[2] - word.box[0]) / pitch + 0.75)


def _stem_columns(mask: Image.Image, top: int, foot: int) -> list[float] | None:
    """Where the vertical strokes crossing the lower half of the x-height band (rows top..foot of
    ``mask``) stand: the centres of the ink runs, on the row whose count of runs is the most common."""
    h = mask.height
    data = mask.tobytes()
    rows = []
    for y in range(top + (foot - top) // 2, min(h, foot - (foot - top) // 8)):
        rows.append([(start + end - 1) / 2 for start, end in _runs(mask, y, data)])
    if not rows:
        return None
    counts = [len(r) for r in rows]
    common = max(set(counts), key=counts.count)
    return next(r for r in rows if len(r) == common)


def correct_pitch(words: list[Word], ink: Ink) -> list[str]:
    """A word of a fixed-pitch page one cell wider than its reading, read with an "m" (or an "n") whose
    two cells hold two stems each: two n's."""
    pitch = _pitch(words)
    if pitch is None:
        return []
    notes = []
    for w in words:
        text = w.text
        if _cells(w, pitch) != len(text) + 1 or len(w.chars) != len(text):
            continue
        for i, c in enumerate(w.chars):
            if c.text not in ("m", "n"):
                continue
            l = int(round(w.box[0] + i * pitch))
            mask = ink.mask((l, w.box[1], int(round(l + 2 * pitch)), w.box[3]))
            bbox = mask.getbbox() if mask is not None else None
            if not bbox:
                continue
            stems = _stem_columns(mask, _top(mask, bbox), bbox[3])
            if stems and len(stems) == 4 and sum(x < pitch for x in stems) == 2:
                c.text = "nn"
                notes.append(f"{text!r}: a cell wider than its reading, read {w.text!r}")
                break
    return notes


def correct(words: list[Word], image: Image.Image) -> list[str]:
    """Apply the corrections to ``words`` (the reading of ``image``) in place; what was changed."""
    ink = Ink(image)
    notes = drop_inkless(words, ink) + join_addresses(words)
    for word in words:
        for rule in RULES:
            note = rule(word, ink)
            if note:
                notes.append(note)
    notes += correct_pitch(words, ink)
    return notes + correct_lines(words, ink)
