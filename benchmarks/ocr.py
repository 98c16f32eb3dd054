"""OCR accuracy: what the ocr app reads on every image whose text is known, before and after its
preprocessing (apps/ocr.py).

- OfficeBench: every distinct image of the testbeds listed in benchmarks/ocr_officebench.yaml, with the
  lines the imported tasks depend on and the values their checks look for, as printed. A line is
  *read* when it occurs verbatim in the output (whitespace runs, dashes and quotes normalised); its
  character accuracy is 1 - the normalised edit (InDel) distance to the best-matching stretch of the
  output (rapidfuzz partial_ratio). A checked value is read when it occurs, case ignored as the
  checks ignore it.
- The suite: every image a task of tasks/suite or tasks/examples builds, whose whole text is known:
  character accuracy is 1 - the normalised Levenshtein distance between the output and the text.

"before" is a plain tesseract run on the image as it is (the ocr app until it preprocessed); "after"
is the app's reading. Needs the OfficeBench snapshot at ../shared/benchmarks/officebench (or
OFFICESIM_OFFICEBENCH) for the first part; the suite part always runs. Prints the figures and writes
benchmarks/results/ocr.json; ``--passes`` also prints every pass with its confidence.
"""

from __future__ import annotations

import io
import os
import re
import resource
import statistics
import sys
import time
from pathlib import Path

from common import ROOT, print_table, write_result

import yaml
from PIL import Image
from rapidfuzz import fuzz
from rapidfuzz.distance import Levenshtein

from officesim.apps import ocr

SNAPSHOT = Path(os.environ.get("OFFICESIM_OFFICEBENCH") or ROOT.parent / "shared" / "benchmarks" / "officebench")
TRUTH = ROOT / "benchmarks" / "ocr_officebench.yaml"
SUITE_DIRS = [ROOT / "tasks" / "suite", ROOT / "tasks" / "examples"]
_DASHES = str.maketrans({"\u2013": "-", "\u2014": "-", "\u2212": "-", "\u2018": "'", "\u2019": "'",
                         "\u201c": '"', "\u201d": '"'})


def normalise(text: str) -> str:
    return re.sub(r"\s+", " ", text.translate(_DASHES)).strip()


def before(image: Image.Image) -> str:
    """The former reading: tesseract on the image as it is."""
    import pytesseract

    return pytesseract.image_to_string(image.convert("RGB"), timeout=ocr.OCR_TIMEOUT).strip()


def after(image: Image.Image) -> str:
    return ocr._tesseract(image).strip()


def _frames(path: Path) -> list[Image.Image]:
    img = Image.open(path)
    frames = []
    for i in range(getattr(img, "n_frames", 1)):
        img.seek(i)
        frames.append(img.copy())
    return frames


def value_scores(values: list[str], output: str, *, fold: bool = False) -> tuple[int, float, list[str]]:
    """(values read verbatim, mean character accuracy, the values missed); with ``fold``, case is
    ignored (the tasks' checks ignore it)."""
    text = normalise(output)
    missed, acc = [], []
    for v in values:
        v = normalise(str(v))
        if (v.casefold() in text.casefold()) if fold else (v in text):
            acc.append(1.0)
        else:
            missed.append(v)
            acc.append(fuzz.partial_ratio(v, text) / 100)
    return len(values) - len(missed), statistics.fmean(acc) if acc else 1.0, missed


def text_accuracy(truth: str, output: str) -> float:
    return 1 - Levenshtein.normalized_distance(normalise(truth), normalise(output))


def _cpu() -> float:
    """CPU seconds used so far by this process and its finished children (tesseract runs as one): on a
    busy machine the wall time measures the load as much as the reading."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _read(fn, frames) -> tuple[str, float, float]:
    t0, c0 = time.perf_counter(), _cpu()
    text = "\n".join(fn(f) for f in frames)
    return text, time.perf_counter() - t0, _cpu() - c0


def officebench(show_passes: bool = False) -> dict | None:
    tasks = SNAPSHOT / "tasks"
    if not tasks.is_dir():
        print(f"OCR on OfficeBench images skipped: no snapshot at {SNAPSHOT}")
        return None
    truth = yaml.safe_load(TRUTH.read_text())
    rows, images = [], []
    for rel, entry in truth.items():
        values, checked = entry["lines"], entry.get("checked", [])
        frames = _frames(tasks / rel)
        out = {}
        for name, fn in (("before", before), ("after", after)):
            text, secs, cpu = _read(fn, frames)
            read, acc, missed = value_scores(values, text)
            checked_read, _acc, checked_missed = value_scores(checked, text, fold=True)
            out[name] = {"read": read, "char_accuracy": round(acc, 4), "missed": missed,
                         "checked_read": checked_read, "checked_missed": checked_missed,
                         "seconds": round(secs, 2), "cpu_seconds": round(cpu, 2)}
        images.append({"image": rel, "values": len(values), "checked": len(checked), **out})
        rows.append([rel, len(values), f"{out['before']['read']} ({out['before']['char_accuracy']:.3f})",
                     f"{out['after']['read']} ({out['after']['char_accuracy']:.3f})", out["after"]["seconds"],
                     out["after"]["cpu_seconds"]])
        if show_passes:
            for r in ocr.readings(frames[0]):
                print(f"  {rel}: {r.label}: confidence {r.confidence:.1f}, {r.chars} chars")
        for v in out["after"]["missed"]:
            print(f"  missed after: {rel}: {v!r}")
        for v in out["after"]["checked_missed"]:
            print(f"  CHECKED value missed after: {rel}: {v!r}")
    total = sum(i["values"] for i in images)
    summary = {}
    for name in ("before", "after"):
        summary[name] = {"values_read": sum(i[name]["read"] for i in images), "values": total,
                         "checked_values_read": sum(i[name]["checked_read"] for i in images),
                         "checked_values": sum(i["checked"] for i in images),
                         "images_all_read": sum(i[name]["read"] == i["values"] for i in images),
                         "char_accuracy": round(statistics.fmean(i[name]["char_accuracy"] for i in images), 4),
                         "seconds_per_image": round(statistics.fmean(i[name]["seconds"] for i in images), 2),
                         "cpu_seconds_per_image": round(statistics.fmean(i[name]["cpu_seconds"] for i in images), 2)}
    print_table(f"OCR on OfficeBench's {len(images)} distinct images (values read verbatim, mean character accuracy)",
                ["image", "values", "before", "after", "after s", "after CPU s"], rows)
    return {"images": images, **summary}


def suite_images() -> list[tuple[str, str, bytes]]:
    """(task id/path, text, file bytes) of every image builder in the suite and the examples."""
    from officesim.testbed.builders import render_text_image

    found = []
    for d in SUITE_DIRS:
        for task_file in sorted(d.glob("*/task.yaml")):
            spec = yaml.safe_load(task_file.read_text())
            for b in spec.get("office") or []:
                if not isinstance(b, dict) or b.get("type") != "image":
                    continue
                img = render_text_image(b["text"], b.get("font_size", 28), b.get("width"), b.get("height"))
                suffix = Path(b["path"]).suffix.lower()
                fmt = {".jpg": "JPEG", ".jpeg": "JPEG", ".gif": "GIF", ".bmp": "BMP", ".tif": "TIFF",
                       ".tiff": "TIFF", ".webp": "WEBP"}.get(suffix, "PNG")
                buf = io.BytesIO()
                img.save(buf, format=fmt, **({"quality": 95} if fmt == "JPEG" else {}))
                found.append((f"{task_file.parent.name}/{b['path']}", b["text"], buf.getvalue()))
    return found


def suite() -> dict:
    results = {"before": [], "after": []}
    worst = {"before": (2.0, ""), "after": (2.0, "")}
    secs = {"before": 0.0, "after": 0.0}
    cpus = {"before": 0.0, "after": 0.0}
    seen: set[bytes] = set()
    for name, text, data in suite_images():
        if data in seen:
            continue
        seen.add(data)
        frames = [Image.open(io.BytesIO(data))]
        for key, fn in (("before", before), ("after", after)):
            out, s, c = _read(fn, frames)
            acc = text_accuracy(text, out)
            results[key].append(acc)
            secs[key] += s
            cpus[key] += c
            worst[key] = min(worst[key], (acc, name))
    n = len(results["after"])
    summary = {k: {"images": n, "char_accuracy": round(statistics.fmean(v), 4) if v else None,
                   "exact": sum(a == 1.0 for a in v), "worst": {"image": worst[k][1], "char_accuracy": round(worst[k][0], 4)},
                   "seconds_per_image": round(secs[k] / max(n, 1), 2),
                   "cpu_seconds_per_image": round(cpus[k] / max(n, 1), 2)} for k, v in results.items()}
    print_table(f"OCR on the suite's {n} distinct images (whole text known; character accuracy)",
                ["", "mean", "exact", "worst", "s/image", "CPU s/image"],
                [[k, v["char_accuracy"], v["exact"], f"{v['worst']['char_accuracy']} {v['worst']['image']}",
                  v["seconds_per_image"], v["cpu_seconds_per_image"]] for k, v in summary.items()])
    return summary


def run(show_passes: bool = False) -> dict:
    ob = officebench(show_passes)
    su = suite()
    if ob:
        print(f"OfficeBench values read: {ob['before']['values_read']}/{ob['before']['values']} before, "
              f"{ob['after']['values_read']}/{ob['after']['values']} after; values the imported tasks check: "
              f"{ob['before']['checked_values_read']}/{ob['before']['checked_values']} before, "
              f"{ob['after']['checked_values_read']}/{ob['after']['checked_values']} after; character accuracy "
              f"{ob['before']['char_accuracy']:.3f} -> {ob['after']['char_accuracy']:.3f}; CPU s/image "
              f"{ob['before']['cpu_seconds_per_image']} -> {ob['after']['cpu_seconds_per_image']}")
    print(f"suite images: character accuracy {su['before']['char_accuracy']} -> {su['after']['char_accuracy']}; "
          f"CPU s/image {su['before']['cpu_seconds_per_image']} -> {su['after']['cpu_seconds_per_image']}")
    result = {"officebench": ob, "suite": su}
    write_result("ocr", result)
    return result


if __name__ == "__main__":
    run(show_passes="--passes" in sys.argv)
