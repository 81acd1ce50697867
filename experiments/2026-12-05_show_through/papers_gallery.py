"""A gallery that shows both papers: each arm's held-out canvases as painted over their own paper
and over show_through's second paper, side by side, with the matted opacity under each pair.

    .venv/bin/python experiments/2026-12-05_show_through/papers_gallery.py [--per-job 4]

Reads the committed evaluation records (records/<job>/evaluation/samples.parquet): per job the
first `--per-job` clean runs (in the table's order, prompt by prompt), re-rendered as training
renders them over both papers (`pairs.rendered`; records keep replies, not pixels), written to
`gallery/` here (`<job>/<key>_own.png`, `<key>_second.png`) with `gallery/index.html`
(`watercolor.analysis.gallery.gallery_html`). Run after the study is complete.
"""

from __future__ import annotations

import argparse
import importlib.util
from pathlib import Path

import pandas as pd

from watercolor.analysis.gallery import gallery_html, score_text
from watercolor.config import reward_set
from watercolor.rewards.matting import paint_opacity

HERE = Path(__file__).parent
_spec = importlib.util.spec_from_file_location("show_through_pairs", HERE / "pairs.py")
pairs = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(pairs)


def job_cards(job: Path, per_job: int, out: Path) -> list[dict]:
    samples = pd.read_parquet(job / "evaluation" / "samples.parquet")
    chosen = samples[samples["status"] == "ok"].head(per_job)
    canvases = pairs.rendered(chosen["reply"].tolist(), reward_set("show_through").second_paper)
    folder = out / job.name
    folder.mkdir(parents=True, exist_ok=True)
    cards = []
    for (_, row), canvas in zip(chosen.iterrows(), canvases, strict=True):
        stem = folder / str(row["key"]).replace("/", "_")
        for side, picture in (("own", canvas), ("second", canvas.twin)):
            if picture is not None and picture.png is not None:
                Path(f"{stem}_{side}.png").write_bytes(picture.png)
        opacity = paint_opacity(canvas) if canvas.ok else None
        for side in ("own", "second"):
            path = Path(f"{stem}_{side}.png")
            cards.append({
                "image": path.relative_to(out).as_posix() if path.is_file() else None,
                "caption": f"{job.name} · {row['prompt'][:40]}",
                "lines": [f"{side} paper", f"matted opacity {score_text(opacity)}",
                          f"show_through {score_text(row.get('total/show_through'))}"],
            })  # fmt: skip
    return cards


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--per-job", type=int, default=4)
    parser.add_argument("--records", type=Path, default=HERE / "records")
    parser.add_argument("--out", type=Path, default=HERE / "gallery")
    args = parser.parse_args()
    jobs = sorted(p for p in args.records.iterdir() if (p / "evaluation").is_dir())
    sections = [(job.name, job_cards(job, args.per_job, args.out)) for job in jobs]
    page = gallery_html("Both papers: each canvas over its own paper and the second", sections)
    (args.out / "index.html").write_text(page, encoding="utf-8")
    print(f"wrote {args.out / 'index.html'}")


if __name__ == "__main__":
    main()
