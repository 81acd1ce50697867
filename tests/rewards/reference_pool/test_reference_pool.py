"""The bundled reference pool loads (tiers, subjects, images, metadata), draws deterministically,
loads the same through the hub branch from a local snapshot, and rebuilds from its sketches."""

import io
import json
import shutil
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from watercolor.rewards.reference_pool import (
    BUNDLED,
    HUB_POOL,
    TIERS,
    load_pool,
    read_pool,
)
from watercolor.rewards.reference_pool.__main__ import main as pool_cli
from watercolor.tasks.painting import check_sketch

SNAPSHOT = "0123456789abcdef0123456789abcdef01234567"  # a made-up commit hash


def test_the_bundled_pool_has_eight_subjects_in_three_tiers(references):
    assert len(references) == 24 and set(references.tiers) == set(TIERS)
    assert {tier: len(refs) for tier, refs in references.tiers.items()} == dict.fromkeys(TIERS, 8)
    assert len(references.subjects) == 8
    per_subject = Counter(r.subject for r in references.references)
    assert set(per_subject.values()) == {3}
    for subject in references.subjects:
        assert {r.tier for r in references.references if r.subject == subject} == set(TIERS)


def test_every_reference_decodes_and_carries_its_metadata(references):
    for ref in references.references:
        assert {"file", "source", "tier", "subject"} <= set(ref.metadata)
        with Image.open(io.BytesIO(ref.png)) as image:
            assert image.format == "PNG" and image.size == (300, 300)
            assert np.asarray(image.convert("RGB")).std() > 1  # painted, not a blank sheet
        assert "createCanvas(600, 600, WEBGL)" in ref.sketch
        assert ref.name == f"{ref.subject}_{ref.tier}"


def test_love_and_ok_pass_the_task_gate_and_nope_is_flat_p5(references):
    """The references a judge sees by default are in the medium the policy is paid for."""
    for ref in references.references:
        codes = {v.code for v in check_sketch(ref.sketch)}
        assert (codes == set()) if ref.tier != "nope" else ("bare_primitive" in codes), ref.name


def test_committed_pool_stays_small():
    size = sum(p.stat().st_size for p in BUNDLED.rglob("*") if p.is_file())
    assert size < 5 * 2**20


def test_a_draw_is_half_love_half_ok_and_fixed_by_its_seed(references):
    drawn = references.draw(4, seed=7)
    assert [r.tier for r in drawn] == ["love", "love", "ok", "ok"]
    assert [r.name for r in drawn] == [r.name for r in references.draw(4, seed=7)]
    draws = {tuple(r.name for r in references.draw(4, seed=s)) for s in range(10)}
    assert len(draws) > 5  # other seeds, other references
    assert [r.tier for r in references.draw(4, seed=7, love_share=0.25)].count("love") == 1
    with pytest.raises(ValueError, match="love"):
        references.draw(20, seed=0)


def test_a_local_folder_loads_like_the_bundled_pool(tmp_path, references):
    copy = shutil.copytree(BUNDLED, tmp_path / "pool")
    loaded = load_pool(copy)
    assert [r.name for r in loaded.references] == [r.name for r in references.references]
    assert loaded.references[0].png == references.references[0].png


def test_the_hub_branch_reads_a_snapshot_with_the_same_reader(tmp_path, references):
    """A hub id goes through huggingface_hub.snapshot_download; here it finds a snapshot already
    in its cache (local_files_only), laid out as a download leaves it, and reads that."""
    repo = tmp_path / ("datasets--" + HUB_POOL.replace("/", "--"))
    (repo / "refs").mkdir(parents=True)
    (repo / "refs" / "main").write_text(SNAPSHOT)
    shutil.copytree(BUNDLED, repo / "snapshots" / SNAPSHOT)
    loaded = load_pool(HUB_POOL, cache_dir=tmp_path, local_files_only=True)
    assert loaded.root == repo / "snapshots" / SNAPSHOT
    assert [(r.name, r.tier, r.png) for r in loaded.references] == [
        (r.name, r.tier, r.png) for r in references.references
    ]


def test_inline_sources_and_bad_metadata(tmp_path):
    (tmp_path / "images").mkdir()
    Image.new("RGB", (8, 8), "white").save(tmp_path / "images" / "a.png")
    record = {"file": "images/a.png", "source": "function setup() {}", "tier": "ok", "subject": "x"}
    (tmp_path / "metadata.jsonl").write_text(json.dumps(record) + "\n")
    assert read_pool(tmp_path).references[0].sketch == "function setup() {}"
    (tmp_path / "metadata.jsonl").write_text(json.dumps(record | {"tier": "great"}) + "\n")
    with pytest.raises(ValueError, match="tier"):
        read_pool(tmp_path)
    (tmp_path / "metadata.jsonl").write_text(json.dumps({"file": "images/a.png"}) + "\n")
    with pytest.raises(ValueError, match="lacks"):
        read_pool(tmp_path)


@pytest.mark.browser
def test_build_renders_the_sketches_into_the_committed_images(tmp_path, capsys):
    """`python -m watercolor.rewards.reference_pool build` on a copy of two sketches."""
    names = ["poppy_ok", "teapot_nope"]
    (tmp_path / "sources").mkdir()
    for name in names:
        shutil.copy(BUNDLED / "sources" / f"{name}.js", tmp_path / "sources")
    assert pool_cli(["build", "--folder", str(tmp_path)]) == 0
    assert "2 references" in capsys.readouterr().out
    built = read_pool(tmp_path)
    assert [r.name for r in built.references] == names
    for ref in built.references:
        fresh = np.asarray(Image.open(io.BytesIO(ref.png)).convert("RGB"), dtype=np.int16)
        committed = np.asarray(Image.open(BUNDLED / "images" / f"{ref.name}.png"), dtype=np.int16)
        assert fresh.shape == committed.shape == (300, 300, 3)
        # Same code and seed: the same picture up to SwiftShader's rasteriser.
        assert (np.abs(fresh - committed) > 24).mean() < 0.001
    assert json.loads((tmp_path / "metadata.jsonl").read_text().splitlines()[0])["tier"] == "ok"


def test_build_refuses_badly_named_sketches(tmp_path, capsys):
    (tmp_path / "sources").mkdir()
    (tmp_path / "sources" / "poppy_great.js").write_text("function setup() {}")
    assert pool_cli(["build", "--folder", str(tmp_path)]) == 1
    assert "<subject>_<tier>.js" in capsys.readouterr().err
    assert not Path(tmp_path / "metadata.jsonl").exists()
