"""Each task's reward-audit table (`Task.audit`, watercolor/tasks/audit_table.py): sketch files, the
corpus kinds and the matched pairs, built from the task configs as the audit builds them."""

import re

import pytest
from omegaconf import OmegaConf

from watercolor.analysis.provenance import config_hash
from watercolor.config import compose_train
from watercolor.tasks import build_task
from watercolor.tasks.audit_table import CHEAT, GENUINE, read_sketch, twin_pairs
from watercolor.tasks.painting.audit import SAMPLE_PROMPTS
from watercolor.tasks.painting.twins import opaque as painting_opaque
from watercolor.tasks.painting.twins import pale as painting_pale
from watercolor.tasks.svg.audit import opaque as svg_opaque
from watercolor.tasks.svg.audit import pale as svg_pale
from watercolor.tasks.svg.gate import check_reply

OPACITY = re.compile(r'fill-opacity="([0-9.]+)"')


@pytest.fixture(scope="module")
def tables():
    tasks = {name: build_task(compose_train([f"task={name}"]).task) for name in ("painting", "svg")}
    return {name: task.audit(pairs=3) for name, task in tasks.items()}


def test_a_sketch_file_says_its_prompt_and_kind_in_its_own_comment_syntax(tmp_path):
    js = tmp_path / "blob.js"
    js.write_text("// prompt: paint a teal owl\n// Cheat: one blob.\nfunction setup() {}\n")
    svg = tmp_path / "owl.svg"
    svg.write_text("<!-- prompt: draw a teal owl -->\n<!-- Genuine: an owl -->\n<svg/>\n")
    assert read_sketch(js).kind == CHEAT and read_sketch(js).prompt == "paint a teal owl"
    assert read_sketch(js).about == "one blob." and read_sketch(js).reply == js.read_text()
    assert (read_sketch(svg).kind, read_sketch(svg).about) == (GENUINE, "an owl")
    for bad in ("// a sketch\n// Cheat: x\n", "// prompt: p\n// Maybe: x\n", "// prompt: p\n"):
        js.write_text(bad)
        with pytest.raises(ValueError, match="line"):
            read_sketch(js)


def test_painting_table_holds_the_samples_the_sketch_files_and_both_twins(tables):
    table = tables["painting"]
    names = [s.name for s in table.sketches]
    assert len(names) == len(set(names)) == 7 + 34
    genuine = {s.name for s in table.sketches if s.kind == GENUINE}
    assert genuine == set(SAMPLE_PROMPTS) | {"poppies", "iris", "coastline", "teapot", "dawn_sky"}
    assert all(s.prompt.endswith(" in watercolour") for s in table.sketches)
    assert [(p.kind, p.index) for p in table.pairs] == [
        (kind, i) for kind in ("opaque", "pale") for i in range(3)
    ]
    assert table.reference == "translucent" and set(table.about) == {"opaque", "pale"}


def test_painting_twins_change_the_fills_opacity_and_nothing_else(tables):
    for pair in tables["painting"].pairs:
        twin = {"opaque": painting_opaque, "pale": painting_pale}[pair.kind](pair.reference)
        assert pair.twin == twin != pair.reference
        fills = re.findall(r"brush\.fill\([^)]*\)", pair.twin)
        assert fills and all(f.endswith(", 255)") for f in fills)
        outside = re.sub(r"brush\.fill\([^)]*\)", "", pair.twin)
        assert outside == re.sub(r"brush\.fill\([^)]*\)", "", pair.reference)


def test_svg_table_holds_every_corpus_kind_and_the_sketch_files(tables):
    table = tables["svg"]
    kinds = {s.name.split("-")[0] for s in table.sketches}
    assert kinds >= {"layered", "flat_block", "flat_shapes", "off_colour", "sparse", "broken"}
    assert {"whale", "colour_sheet", "stacked_veils"} <= kinds
    assert {s.name for s in table.sketches if s.kind == GENUINE} == {
        *(f"layered-{i}" for i in range(6)),
        "whale",
    }
    broken = [s for s in table.sketches if s.name.startswith("broken-")]
    assert len(broken) == 5 and all(check_reply(s.reply)[1] for s in broken)
    clean = [s for s in table.sketches if not s.name.startswith("broken-")]
    assert not [s.name for s in clean if check_reply(s.reply)[1]]  # the rest pass the gate


def test_svg_twins_are_opaque_and_the_pale_one_mixes_each_colour_with_the_paper(tables):
    pair = next(p for p in tables["svg"].pairs if p.kind == "pale")
    assert OPACITY.findall(pair.reference) and not OPACITY.findall(pair.twin)
    assert pair.twin == svg_pale(pair.reference) and svg_opaque(pair.reference) != pair.twin
    shape = '<circle r="9" fill="#000000" fill-opacity="0.50"/>'
    assert svg_pale(shape) == '<circle r="9" fill="#7e7c78"/>'  # half of #fbf8f1
    assert svg_opaque(shape) == '<circle r="9" fill="#000000"/>'


def test_pairs_pair_each_composition_with_each_twin():
    found = twin_pairs([("p0", "a"), ("p1", "b")], {"up": str.upper, "twice": lambda r: r * 2})
    assert [(p.kind, p.index, p.prompt, p.twin) for p in found] == [
        ("up", 0, "p0", "A"),
        ("up", 1, "p1", "B"),
        ("twice", 0, "p0", "aa"),
        ("twice", 1, "p1", "bb"),
    ]


def test_a_task_config_without_an_audit_table_builds_a_task_without_one():
    assert build_task(compose_train(["~task.audit"]).task).audit is None


def test_the_audit_table_leaves_a_runs_config_hash_as_it_was():
    # No run reads it: a study in parts keeps one hash across the commit that added it.
    def hashed(overrides):
        return config_hash(OmegaConf.to_container(compose_train(overrides), resolve=False))

    assert hashed([]) == hashed(["~task.audit"]) == hashed(["task.audit.pairs=3"])
    assert hashed([]) != hashed(["task.turns=2"])
