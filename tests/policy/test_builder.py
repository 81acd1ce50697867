"""Cached painters are named by what they are made of, never by the source of the code (issue 33).

A comment appended to every module of the package leaves every cache name as it was (computed
in a fresh interpreter on such a copy of the package); a change to what a painter trains
on (its corpus, its revision records' plans or wording) renames it; and the records the tiny
painter's name hashes are the records its build trains on.
"""

import json
import os
import shutil
import subprocess
import sys
from dataclasses import asdict, replace
from pathlib import Path

import pytest

from watercolor.policy.builder import digest, records_digest
from watercolor.tasks.painting import feedback
from watercolor.tasks.painting.painter import tiny, tiny_qwen35, tiny_revise
from watercolor.tasks.painting.painter.tiny import SMOKE, training_records
from watercolor.tasks.svg import painter as svg_painter

ROOT = Path(__file__).resolve().parents[2]


def cache_names() -> dict[str, str]:
    """The name of every painter the package defines, and of the revising painters' records."""
    revising = {"default": tiny_revise.DEFAULT_REVISE, "smoke": tiny_revise.SMOKE_REVISE}
    qwen35 = ("MOE", "DENSE", "GPU_MOE", "GPU_DENSE")
    return {
        "tiny default": tiny.cache_dir(tiny.DEFAULT, "c").name,
        "tiny smoke": tiny.cache_dir(tiny.SMOKE, "c").name,
        **{f"revise {k}": tiny_revise.cache_dir(c, "c").name for k, c in revising.items()},
        **{f"records {k}": tiny_revise.records_hash(c) for k, c in revising.items()},
        **{f"qwen35 {k}": tiny_qwen35.cache_dir(getattr(tiny_qwen35, k), "c").name for k in qwen35},
        "svg default": svg_painter.cache_dir(svg_painter.DEFAULT, "c").name,
        "svg smoke": svg_painter.cache_dir(svg_painter.SMOKE, "c").name,
    }


if __name__ == "<run_path>":  # in the subprocess below: print the names this package gives
    import watercolor

    assert Path(watercolor.__file__).is_relative_to(Path.cwd()), watercolor.__file__
    print(json.dumps(cache_names()))


def commented_copy(into: Path) -> Path:
    """The package and its configs copied into `into`, a comment appended to every module."""
    ignored = shutil.ignore_patterns("node_modules", "__pycache__")
    shutil.copytree(ROOT / "watercolor", into / "watercolor", ignore=ignored)
    shutil.copytree(ROOT / "conf", into / "conf")
    modules = sorted((into / "watercolor").rglob("*.py"))
    for module in modules:
        with module.open("a") as source:
            source.write("\n# A comment: a painter's name must not change for it.\n")
    assert len(modules) > 21  # at least the 21 modules whose source once named the painters
    return into


@pytest.mark.slow  # slow tier: experiments/2026-12-07_test_tiers
def test_a_comment_in_any_module_renames_no_painter(tmp_path):
    copy = commented_copy(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(copy)}
    code = f"import runpy; runpy.run_path({str(Path(__file__))!r}, run_name='<run_path>')"
    pipe = subprocess.PIPE
    process = subprocess.Popen(
        [sys.executable, "-c", code], cwd=copy, env=env, stdout=pipe, stderr=pipe, text=True
    )
    expected = cache_names()  # meanwhile, from the checkout as it is
    out, err = process.communicate(timeout=600)
    assert process.returncode == 0, err[-3000:]
    assert json.loads(out.splitlines()[-1]) == expected


@pytest.mark.slow  # slow tier: experiments/2026-12-07_test_tiers
def test_a_change_to_the_corpus_renames_every_painter_trained_on_it(monkeypatch):
    before = cache_names()
    real = tiny.generate_corpus

    def one_reply_changed(*args, **kwargs):
        examples = real(*args, **kwargs)
        examples[0] = replace(examples[0], reply=examples[0].reply.replace(";", "; ", 1))
        return examples

    monkeypatch.setattr(tiny, "generate_corpus", one_reply_changed)
    svg_real = svg_painter.generate_corpus

    def one_svg_reply_changed(*args, **kwargs):
        examples = svg_real(*args, **kwargs)
        examples[0] = replace(examples[0], reply=examples[0].reply.replace(">", "> ", 1))
        return examples

    monkeypatch.setattr(svg_painter, "generate_corpus", one_svg_reply_changed)
    after = cache_names()
    renamed = sorted(name for name in before if after[name] != before[name])
    assert renamed == sorted(name for name in before if not name.startswith("records"))
    assert tiny.config_hash(replace(SMOKE, corpus_seed=1)) != tiny.config_hash(SMOKE)


def test_a_change_to_the_revision_records_renames_them_and_their_painter(monkeypatch):
    config = tiny_revise.DEFAULT_REVISE
    records, painter = tiny_revise.records_hash(config), tiny_revise.config_hash(config)
    real = tiny_revise.plan_revisions

    def one_revision_changed(*args):
        plans = real(*args)
        return [replace(plans[0], revision=plans[0].revision + "\n"), *plans[1:]]

    monkeypatch.setattr(tiny_revise, "plan_revisions", one_revision_changed)
    assert tiny_revise.records_hash(config) != records
    assert tiny_revise.config_hash(config) != painter
    monkeypatch.undo()
    assert tiny_revise.records_hash(config) == records
    # the feedback's wording is what the records say, so it names them too
    monkeypatch.setattr(feedback, "HOW_IT_ENDED", {**feedback.HOW_IT_ENDED, "ok": "It ran."})
    assert tiny_revise.records_hash(config) != records


def test_the_name_hashes_the_records_the_build_trains_on(monkeypatch, tmp_path):
    trained = {}

    class Stop(Exception):
        pass

    def stop_before_training(model, tokenizer, records, *args, **kwargs):
        trained["records"] = records
        raise Stop

    monkeypatch.setattr(tiny, "warm_start", stop_before_training)
    with pytest.raises(Stop):
        tiny.build_tiny_model(SMOKE, tmp_path, progress=False)
    assert records_digest(trained["records"]) == records_digest(training_records(SMOKE))
    # and what the name covers besides the config is exactly those records
    named = digest({**asdict(SMOKE), "records": records_digest(trained["records"])})
    assert tiny.cache_dir(SMOKE, tmp_path).name == f"tiny-{named}"
