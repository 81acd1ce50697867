"""A study's parts start from one model: each run records the fingerprint of the weights it
started from, a job whose study recorded other weights refuses to train, and compare warns
when a study's runs started from different weights. (The same build config gives other
weights on another CPU, so the config hash alone cannot tell.)"""

from __future__ import annotations

import hashlib
import json

import pandas as pd
import pytest
from omegaconf import OmegaConf

from watercolor.analysis import records
from watercolor.analysis.provenance import weights_fingerprint
from watercolor.training.study import OtherWeightsError, check_weights


def model_dir(path, weights: bytes):
    path.mkdir(parents=True)
    (path / "model.safetensors").write_bytes(weights)
    (path / "config.json").write_text("{}")
    return path


def test_the_fingerprint_is_the_weight_files_sha256_and_only_theirs(tmp_path):
    folder = model_dir(tmp_path / "m", b"weights-1")
    assert weights_fingerprint(folder) == hashlib.sha256(b"weights-1").hexdigest()[:12]
    (folder / "config.json").write_text('{"changed": true}')  # not weights
    assert weights_fingerprint(folder) == hashlib.sha256(b"weights-1").hexdigest()[:12]
    (folder / "model.safetensors").write_bytes(b"weights-2")
    assert weights_fingerprint(folder) == hashlib.sha256(b"weights-2").hexdigest()[:12]
    one = weights_fingerprint(folder)
    (folder / "adapter_model.bin").write_bytes(b"more")  # several files: all of them count
    assert len(weights_fingerprint(folder)) == 12 and weights_fingerprint(folder) != one


def test_a_hub_id_or_a_folder_without_weights_has_no_fingerprint(tmp_path):
    assert weights_fingerprint("Qwen/Qwen3.5-4B") == ""
    (tmp_path / "empty").mkdir()
    assert weights_fingerprint(tmp_path / "empty") == ""


def write_job(root, key: str, weights: str | None) -> None:
    folder = root / key
    (folder / records.EVALUATION_DIR).mkdir(parents=True)
    info = {"run_id": key, "arm": key.split("-")[0], "seed": "0"}
    info |= {"weights": weights} if weights is not None else {}
    (folder / records.RUN_FILE).write_text(json.dumps(info))
    (folder / records.EVALUATION_DIR / "evaluation.json").write_text("{}")


def write_untrained(root, weights: str) -> None:
    folder = root / records.UNTRAINED_KEY / records.EVALUATION_DIR
    folder.mkdir(parents=True)
    (folder / "evaluation.json").write_text(json.dumps({"params": {"weights": weights}}))


def study_config(root, allow: bool = False):
    return OmegaConf.create({"records": str(root), "max_jobs": None, "allow_other_weights": allow})


def test_a_job_refuses_to_train_from_other_weights_than_its_study_recorded(tmp_path):
    root = tmp_path / "records"
    write_job(root, "single-seed0", "aaaaaaaaaaaa")
    write_job(root, "single-seed1", None)  # recorded before fingerprints: says nothing
    write_untrained(root, "aaaaaaaaaaaa")
    assert records.starting_weights(root) == {"single-seed0": "aaaaaaaaaaaa",
                                              "untrained": "aaaaaaaaaaaa"}  # fmt: skip
    check_weights(study_config(root), "aaaaaaaaaaaa")  # the same model: trains
    with pytest.raises(OtherWeightsError, match="single-seed0 from aaaaaaaaaaaa") as refused:
        check_weights(study_config(root), "bbbbbbbbbbbb")
    assert "untrained from aaaaaaaaaaaa" in str(refused.value)
    assert "study.allow_other_weights=true" in str(refused.value)
    check_weights(study_config(root, allow=True), "bbbbbbbbbbbb")  # asked for: trains
    check_weights(OmegaConf.create({"records": None}), "bbbbbbbbbbbb")  # no study: trains
    check_weights(study_config(tmp_path / "new"), "bbbbbbbbbbbb")  # the study's first job


def test_a_pinned_painter_refuses_other_weights_from_the_first_job_on(tmp_path):
    pinned = OmegaConf.create({"records": str(tmp_path / "new"), "weights": "aaaaaaaaaaaa"})
    check_weights(pinned, "aaaaaaaaaaaa")  # the pre-registered painter: trains
    with pytest.raises(OtherWeightsError, match="study.weights=aaaaaaaaaaaa"):
        check_weights(pinned, "bbbbbbbbbbbb")  # no records yet, but not the pinned painter
    with pytest.raises(OtherWeightsError, match="pins"):  # without a records folder too
        check_weights(OmegaConf.create({"records": None, "weights": "aaaaaaaaaaaa"}), "b" * 12)
    digits = OmegaConf.create({"records": None, "weights": 123456789012})  # unquoted in YAML
    check_weights(digits, "123456789012")
    pinned.allow_other_weights = True
    check_weights(pinned, "bbbbbbbbbbbb")  # asked for: trains


def test_the_training_config_has_the_switch_off_by_default():
    from watercolor.config import compose_config

    study = compose_config("train", []).study
    assert study.allow_other_weights is False and study.weights is None


def test_compare_warns_when_a_studys_runs_started_from_different_weights():
    table = pd.DataFrame({
        "label": ["single/seed0", "single/seed1", "revise/seed0"],
        "arm": ["single", "single", "revise"], "config_hash": ["h1", "h1", "h2"],
        "commit": ["c"] * 3, "dirty": ["false"] * 3, "study": ["s"] * 3,
        "weights": ["aaaaaaaaaaaa", "", "bbbbbbbbbbbb"],
    })  # fmt: skip
    (warned,) = [w for w in records.provenance_warnings(table) if "different weights" in w]
    assert "aaaaaaaaaaaa: single/seed0" in warned and "bbbbbbbbbbbb: revise/seed0" in warned
    table.loc[2, "weights"] = "aaaaaaaaaaaa"  # one model (an unrecorded one says nothing)
    assert not [w for w in records.provenance_warnings(table) if "different weights" in w]
