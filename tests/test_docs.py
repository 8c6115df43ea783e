"""Generated documentation (privtest_artifact.docs, rule docs): the renderers, rendering is a pure function of the
tracked inputs (not of the run's benchmark files, the clock or the machine's paths), and the committed documents equal
their rendering from the committed inputs (docs/results/claims.csv, benchmarks/job_times.csv,
benchmarks/reproduction_time.json, the notebooks' title cells, the catalogue)."""

import json
import re
from pathlib import Path

import pandas as pd
import pytest
from privtest_workflow import catalogue
from privtest_workflow.captions import title_cell

from privtest_artifact import docs
from privtest_artifact.claims import COLUMNS, VERDICTS

ROOT = Path(__file__).resolve().parents[1]
#: The documents with generated blocks (workflow/rules/docs.smk: DOCUMENTS).
DOCUMENTS = ["README.md", "ARTIFACT-APPENDIX.md", "docs/findings.md", "docs/slurm.md", "docs/library.md"]
README_MAX_BYTES = 12 * 1024


def _claims(rows):
    base = dict.fromkeys(COLUMNS, "")
    return pd.DataFrame([base | r for r in rows], columns=COLUMNS)


CLAIMS = _claims(
    [
        {"claim_id": "oc.step[t=1]", "source": "Thm 21", "experiment": "fig_oc", "measured": "0.01", "bound": "<= 0.02",
         "verdict": "PASS", "note": "a|b"},
        {"claim_id": "oc.step[t=2]", "source": "Thm 21", "experiment": "fig_oc", "verdict": "INCONCLUSIVE",
         "note": "30 runs would resolve it"},
        {"claim_id": "t.x", "source": "Table 1", "experiment": "table1", "verdict": "VACUOUS",
         "note": "not binding on this input: its value here is -3"},
    ]
)  # fmt: skip
MEASUREMENT = {
    "machine": "2 cores",
    "runs": [
        {
            "key": "reproduce",
            "run": "default",
            "command": "make reproduce",
            "wall_s": 390,
            "where": "clone of abc",
            "cpu_s": 600,
        },
        {"key": "test", "run": "tests", "command": "make test", "wall_s": 727.0, "where": "clone", "notes": "n"},
    ],
}


def test_replace_block_rewrites_only_between_the_markers_and_is_idempotent():
    text = "a\n<!-- BEGIN generated:x -->\nold\nlines\n<!-- END generated:x -->\nb\n"
    once = docs.replace_block(text, "x", "new\n")
    assert once == "a\n<!-- BEGIN generated:x -->\nnew\n<!-- END generated:x -->\nb\n"
    assert docs.replace_block(once, "x", "new\n") == once
    inline = "takes (<!-- BEGIN generated:t -->9 min<!-- END generated:t -->) here"
    assert docs.replace_block(inline, "t", "6.5 min\n") == inline.replace("9 min", "6.5 min")
    with pytest.raises(ValueError, match="inline block"):
        docs.replace_block(inline, "t", "two\nlines")
    with pytest.raises(ValueError, match="once each"):
        docs.replace_block(text, "y", "z")
    with pytest.raises(ValueError, match="once each"):
        docs.replace_block(text + text, "x", "z")
    with pytest.raises(ValueError, match="name must be"):
        docs.replace_block(text, "a b", "z")


def test_render_blocks_refuses_a_block_it_has_no_body_for():
    text = "<!-- BEGIN generated:x -->\n<!-- END generated:x -->\n<!-- BEGIN generated:y -->\n<!-- END generated:y -->"
    assert docs.block_names(text) == ["x", "y"]
    with pytest.raises(ValueError, match=r"missing: \['y'\]"):
        docs.render_blocks(text, {"x": "1"})
    assert docs.render_blocks(text, {"x": "1", "y": "2"}).count("\n1\n") == 1


def test_counts_and_claims_map_count_every_verdict():
    assert docs.verdict_counts(CLAIMS) == {"PASS": 1, "FAIL": 0, "INCONCLUSIVE": 1, "VACUOUS": 1, "ERRATUM": 0}
    assert docs.counts_sentence(CLAIMS) == "3 claims: 1 PASS, 0 FAIL, 1 INCONCLUSIVE, 1 VACUOUS, 0 ERRATUM"
    table = docs.claims_map(CLAIMS, ["fig_oc", "table1", "fig_x"]).splitlines()
    assert table[0] == "| output | paper results checked | claims | " + " | ".join(VERDICTS) + " |"
    assert table[2] == "| [`fig_oc`](docs/results/fig_oc.md) | Thm 21 | 2 | 1 | 0 | 1 | 0 | 0 |"
    assert table[4].startswith("| [`fig_x`](docs/results/fig_x.md) |  | 0 |")
    with pytest.raises(ValueError, match="outputs of the catalogue"):
        docs.claims_map(CLAIMS, ["fig_oc"])
    with pytest.raises(ValueError, match="verdicts must be in"):
        docs.verdict_counts(CLAIMS.assign(verdict="MAYBE"))
    rest = docs.non_pass(CLAIMS).splitlines()
    assert rest[2:] == ["| `fig_oc` | `oc.step` | **INCONCLUSIVE** | 1 |", "| `table1` | `t.x` | **VACUOUS** | 1 |"]
    assert docs.non_pass(CLAIMS.iloc[:1]) == "Every claim is PASS."


def test_runtime_table_renders_minutes_and_refuses_a_bad_measurement():
    lines = docs.runtime_table(MEASUREMENT).splitlines()
    assert lines[2] == "| default | `make reproduce` | 6.5 min | 10.0 min | clone of abc |"
    assert lines[3] == "| tests | `make test` | 12.1 min | not recorded | clone; n |"
    assert docs.runtime_of(MEASUREMENT, "test") == "12.1 min"
    with pytest.raises(ValueError, match="key must be one of"):
        docs.runtime_of(MEASUREMENT, "nope")
    bad = {"runs": [MEASUREMENT["runs"][0] | {"wall_s": -1}]}
    with pytest.raises(ValueError, match=r"runs\[0\].wall_s must be a positive"):
        docs.runtime_table(bad)
    with pytest.raises(ValueError, match="missing"):
        docs.runtime_table({"runs": [{"key": "k"}]})
    blocks = docs.standard_blocks(CLAIMS, MEASUREMENT, ["fig_oc", "table1"])
    assert blocks["time.reproduce"] == "6.5 min" and blocks["claims.PASS"] == "1" and blocks["claims.total"] == "3"


def test_result_page_shows_caption_figure_claims_analysis_and_run_time():
    info = docs.OutputInfo("fig_oc", "figure", "3-5 The GTM", "# fig_oc: One GTM step. More words.")
    mine = CLAIMS[CLAIMS.experiment == "fig_oc"]
    analysis = {"summary": pd.DataFrame({f"c{i}": [1.5, float("nan")] for i in range(14)})}
    page = docs.result_page(
        info, mine, {"simulate": 12.34, "figure": 2.0}, analysis=analysis, measured_where="idle 2-core machine"
    )
    assert page.startswith("# `fig_oc`\n")
    assert "**What it shows.** One GTM step. More words." in page
    assert "**Paper results tested.** [Thm 21](../../docs/paper_index.md#thm-21)." in page
    assert "![fig_oc](../../figures/fig_oc.png)" in page and "thumbnails" not in page  # the run's figure itself
    assert "2 claims: 1 PASS, 0 FAIL, 1 INCONCLUSIVE" in page and "| **PASS** | a\\|b |" in page
    assert "| simulate | 12.3 |" in page and "| figure | 2.0 |" in page
    assert f"committed record `{docs.JOB_TIMES}` (measured: idle 2-core machine; not the run" in page
    assert "| c12 | c13 |" in page  # the analysis split at 12 columns (no key column: every column is a float)
    assert "[`docs/claims.md`](../../docs/claims.md#verdicts)" in page  # what the verdicts mean, linked
    assert "- **INCONCLUSIVE** 1: `oc.step` (Thm 21)" in page  # the claims that are not PASS, and what they test
    assert "### `summary`" in page and "results/analysis/fig_oc/summary.csv" in page and "(2 rows, 14 columns)" in page
    table = docs.result_page(
        docs.OutputInfo("table1", "table", "T", "# table1: Table 1."), CLAIMS[CLAIMS.experiment == "table1"], {},
        table_md="# Table 1\n\n| a |\n|---|\n| 1 |\n",
    )  # fmt: skip
    assert "## Table\n\n| a |" in table and docs.NOT_MEASURED in table and "![" not in table
    with pytest.raises(ValueError, match="claims must be those of fig_oc"):
        docs.result_page(info, CLAIMS, {})


def test_read_runtimes_takes_the_last_row_of_each_benchmark(tmp_path):
    (tmp_path / "simulate").mkdir()
    (tmp_path / "simulate" / "fig_oc.tsv").write_text("s\th:m:s\n1.0\t0\n2.26\t0\n")
    got = docs.read_runtimes(tmp_path, ["fig_oc", "fig_x"])
    assert got.to_dict("records") == [{"output": "fig_oc", "job": "simulate", "seconds": 2.3}]


def test_read_runtimes_reads_every_benchmarked_rule_of_an_output(tmp_path):
    """The rules with a per-output ``benchmark:`` (workflow/rules/*.smk) are the ones the record times, in order."""
    for rule in ("table", "figure", "check", "analyse", "simulate"):
        (tmp_path / rule).mkdir()
        (tmp_path / rule / "fig_oc.tsv").write_text("s\th:m:s\n1.0\t0\n")
    got = docs.read_runtimes(tmp_path, ["fig_oc"])
    assert list(got["job"]) == ["simulate", "analyse", "check", "figure", "table"]


def test_job_times_record_round_trips_and_refuses_a_bad_file(tmp_path):
    runtimes = pd.DataFrame({"output": ["fig_oc", "fig_oc"], "job": ["simulate", "figure"], "seconds": [2.26, 10.0]})
    text = docs.job_times_csv(runtimes, "scratch copy of abc, idle 2-core machine")
    assert text.splitlines() == [
        "output,job,seconds,where",
        'fig_oc,simulate,2.3,"scratch copy of abc, idle 2-core machine"',
        'fig_oc,figure,10.0,"scratch copy of abc, idle 2-core machine"',
    ]
    (tmp_path / "t.csv").write_text(text)
    got = docs.read_job_times(tmp_path / "t.csv")
    assert got["seconds"].tolist() == [2.3, 10.0] and set(got["where"]) == {"scratch copy of abc, idle 2-core machine"}
    with pytest.raises(ValueError, match="where must say"):
        docs.job_times_csv(runtimes, " ")
    (tmp_path / "bad.csv").write_text("output,job,seconds,where\nfig_oc,simulate,nan,x\n")
    with pytest.raises(ValueError, match="seconds must be finite"):
        docs.read_job_times(tmp_path / "bad.csv")
    (tmp_path / "cols.csv").write_text("output,job,s\n")
    with pytest.raises(ValueError, match="must have columns"):
        docs.read_job_times(tmp_path / "cols.csv")


def _toy_repository(repo: Path, seconds: float, job_times: str) -> list[docs.OutputInfo]:
    """A repository holding the tracked inputs of rule docs for two outputs, and a run's benchmark files (which
    must not enter the rendering) with ``seconds`` in them."""
    outputs = [
        docs.OutputInfo("fig_oc", "figure", "3-5 The GTM", "# fig_oc: One GTM step."),
        docs.OutputInfo("table1", "table", "T", "# table1: Table 1."),
    ]
    for d in ("figures", "benchmarks", "results/analysis", "results/benchmarks/simulate", "results/benchmarks/figure"):
        (repo / d).mkdir(parents=True, exist_ok=True)
    CLAIMS.to_csv(repo / "figures/claims.csv", index=False)
    (repo / "figures/table1.md").write_text("# Table 1\n\n| a |\n|---|\n| 1 |\n")
    (repo / "results/analysis/fig_oc").mkdir()
    (repo / "results/analysis/fig_oc/summary.csv").write_text("x,y\n0.1,0.333333333\n")
    (repo / "benchmarks/reproduction_time.json").write_text(json.dumps(MEASUREMENT))
    (repo / docs.JOB_TIMES).write_text(job_times)
    for rule in ("simulate", "figure"):
        (repo / f"results/benchmarks/{rule}/fig_oc.tsv").write_text(f"s\th:m:s\n{seconds}\t0\n")
    block = "<!-- BEGIN generated:claims -->\n<!-- END generated:claims -->\n"
    inline = "(<!-- BEGIN generated:time.reproduce --><!-- END generated:time.reproduce -->)\n"
    (repo / "README.md").write_text("# Toy\n\n" + block + inline)
    return outputs


RECORDED = 'output,job,seconds,where\nfig_oc,simulate,12.3,"scratch copy of abc, idle 2-core machine"\n'


@pytest.mark.parametrize("job_times", [RECORDED, "output,job,seconds,where\n"], ids=["recorded", "not-measured"])
def test_rendering_is_the_same_bytes_whatever_the_run_benchmarks(tmp_path, job_times):
    """Two repositories with the same tracked inputs but different benchmark files of their own
    run (and different absolute paths) render byte-identical documents; the times shown are the record's."""
    renders = []
    for name, seconds in (("a", 1.0), ("b", 987.6)):
        outputs = _toy_repository(tmp_path / name, seconds, job_times)
        renders.append(docs.render_repository(tmp_path / name, outputs, ["README.md"], ["results/analysis/fig_oc"]))
    assert renders[0] == renders[1]
    page = renders[0]["docs/results/fig_oc.md"]
    assert "987.6" not in page and "| simulate | 1.0 |" not in page
    assert "### `summary`" in page and "| 0.1 | 0.3333 |" in page  # the analysis directory's tables
    if job_times == RECORDED:
        assert "| simulate | 12.3 |" in page and "idle 2-core machine" in renders[0]["docs/results/README.md"]
    else:
        assert docs.NOT_MEASURED in page and docs.NOT_MEASURED in renders[0]["docs/results/README.md"]
    assert set(renders[0]) == {
        "docs/results/fig_oc.md", "docs/results/table1.md", "docs/results/README.md", "docs/results/claims.csv",
        "docs/paper_index.md", "README.md",
    }  # fmt: skip
    assert "-->6.5 min<!--" in renders[0]["README.md"] and "3 claims: 1 PASS" in renders[0]["README.md"]


#: What must never be in a generated file: an absolute path, a date, a time of day.
UNSTABLE = re.compile(r"(?:^|[\s(`'\"])/(?:home|tmp|work|Users|root|var|opt|private)/|[A-Za-z]:\\|"
                      r"\b(?:19|20)\d\d-[01]\d-[0-3]\d\b|\b[0-2]\d:[0-5]\d:[0-5]\d\b")  # fmt: skip


def test_rendered_pages_hold_no_absolute_path_or_date(tmp_path):
    assert UNSTABLE.search("see /tmp/x") and UNSTABLE.search("on 2026-12-02") and UNSTABLE.search("at 04:28:27")
    assert not UNSTABLE.search("Thm 21, ../../figures/fig_oc.png, 6.5 min, eps=0.5")
    outputs = _toy_repository(tmp_path, 3.0, RECORDED)
    files = docs.render_repository(tmp_path, outputs, ["README.md"], ["results/analysis/fig_oc"])
    for path, text in files.items():
        assert str(tmp_path) not in text and not UNSTABLE.search(text), path
    for document in DOCUMENTS:  # the committed generated blocks (the hand-written text around them may cite dates)
        text = (ROOT / document).read_text()
        bodies = re.findall(r"<!-- BEGIN generated:[^>]*-->(.*?)<!-- END generated", text, re.S)
        assert bodies and not UNSTABLE.search("\n".join(bodies)), document
    for path in sorted((ROOT / "docs/results").glob("*")):  # the committed result pages and snapshot
        assert not UNSTABLE.search(path.read_text()), path


def test_readme_is_at_most_12_kb_and_opens_with_what_is_established_then_the_reviewer_path():
    text = (ROOT / "README.md").read_text()
    assert len(text.encode()) <= README_MAX_BYTES
    steps = ("## Reviewer path", "make install", "make reproduce", "make test", "figures/claims.md", "make report")
    first = ("## What is and is not established", "<!-- BEGIN generated:established -->")
    order = [text.index(s) for s in (*first, *steps, "## Using the library", "## Where to read more")]
    assert order == sorted(order)
    # the first screen (what a reader sees before scrolling) holds the generated statement of what is established
    screen = "\n".join(text.splitlines()[:30])
    assert "VACUOUS" in screen and "Table 2" in screen and docs.PAPER_INDEX in screen


def _outputs() -> list[docs.OutputInfo]:
    return [
        docs.OutputInfo(o.id, o.kind, o.section, title_cell(ROOT / f"notebooks/{o.id}.ipynb"))
        for o in catalogue.load(ROOT).values()
    ]


def test_committed_documents_equal_their_rendering():
    """The generated blocks of README.md, ARTIFACT-APPENDIX.md and docs/findings.md are what privtest_artifact.docs
    renders from the committed inputs: the run-time blocks from benchmarks/reproduction_time.json (the pages' run times
    from benchmarks/job_times.csv); the claims blocks from
    the snapshot of the run that wrote them (docs/results/claims.csv) or, while none is committed, the PENDING
    sentence (never a typed number). With a snapshot, the result pages of the figures and the index are compared as
    well (a table's page also embeds figures/<id>.md, compared when that file is there, and an output's page its
    committed analysis tables results/analysis/<id>/)."""
    snapshot = ROOT / "docs/results"
    run = (snapshot / "claims.csv").exists()
    claims = pd.read_csv(snapshot / "claims.csv", dtype=str, keep_default_na=False) if run else None
    measurement = json.loads((ROOT / "benchmarks/reproduction_time.json").read_text())
    outputs = _outputs()
    bodies = docs.standard_blocks(claims, measurement, [o.id for o in outputs])
    for document in DOCUMENTS:
        text = (ROOT / document).read_text()
        assert docs.block_names(text), document
        assert docs.render_blocks(text, bodies) == text, f"{document}: generated blocks are stale (make reproduce)"
    if not run:
        assert not list(snapshot.glob("*.md")), "result pages without the snapshot they were rendered from"
        return
    runtimes = docs.read_job_times(ROOT / docs.JOB_TIMES)
    tables = {
        o.id: (ROOT / f"figures/{o.id}.md").read_text() for o in outputs if (ROOT / f"figures/{o.id}.md").exists()
    }
    from privtest_artifact.io import read_analysis

    analyses = {d.name: read_analysis(d) for d in sorted((ROOT / "results/analysis").iterdir()) if d.is_dir()}
    data = {o.id: docs.read_output_data(ROOT, o) for o in outputs}
    pages = docs.render_all(outputs, claims, runtimes, tables, analyses, data)
    compared = [p for p in pages if not any(p.endswith(f"/{o.id}.md") and o.kind == "table" and o.id not in tables
                                            for o in outputs)]  # fmt: skip
    assert len(compared) > len(outputs) // 2
    for path in compared:
        assert (ROOT / path).read_text() == pages[path], f"{path} is stale (make reproduce)"


def test_every_document_block_has_a_renderer():
    measurement = json.loads((ROOT / "benchmarks/reproduction_time.json").read_text())
    names = set(docs.standard_blocks(CLAIMS, measurement, ["fig_oc", "table1"]))
    assert names == set(docs.standard_blocks(None, measurement, ["fig_oc", "table1"]))
    for document in DOCUMENTS:
        assert set(docs.block_names((ROOT / document).read_text())) <= names, document


def test_config_readme_is_its_rendering_from_the_schema():
    """config/README.md's key reference is generated from the schema's descriptions (one place per key): the
    committed file equals the rendering, and every section and key of config/config.yaml is in it."""
    import yaml
    from privtest_workflow import configdoc

    text = (ROOT / "config/README.md").read_text()
    schema = configdoc.load_schema(ROOT)
    rendered = docs.replace_block(text, configdoc.BLOCK, configdoc.render(schema))
    assert rendered == text, "config/README.md is stale: python workflow/scripts/render_config_readme.py"
    cfg = yaml.safe_load((ROOT / "config/config.yaml").read_text())
    for section, values in cfg.items():
        assert f"### `{section}`" in text, section
        if isinstance(values, dict) and values:
            keys = configdoc.keys_of(schema["properties"][section], schema)
            assert set(values) <= set(keys), (section, set(values) - set(keys))


def test_every_schema_key_has_a_description():
    """Every section and every key of the config schema (inherited ones, and those of inline mappings and of the
    items of lists: ``burst.n``, ``cases[].pstar``) has a non-empty description, its own or that of the definition
    its ``$ref`` names, so that every row of config/README.md's key reference says what the key is."""
    from privtest_workflow import configdoc

    schema = configdoc.load_schema(ROOT)
    missing = [name for name, node in schema["properties"].items() if not node.get("description", "").strip()]
    for name, node in schema["properties"].items():
        missing += [f"{name}.{key}" for key, sub in configdoc.key_rows(node, schema)
                    if not configdoc.description_of(sub, schema).strip()]  # fmt: skip
    assert not missing, f"{len(missing)} schema keys without a description: {', '.join(missing)}"


def test_key_rows_name_nested_keys_by_path_and_mark_analysis_keys():
    from privtest_workflow import configdoc

    root = {
        "$defs": {"shared": {"type": "object", "properties": {"a": {"type": "integer", "description": "shared a"}}}},
        "properties": {
            "sec": {
                "allOf": [
                    {"$ref": "#/$defs/shared"},
                    {
                        "type": "object",
                        "properties": {
                            "m": {"type": "object", "description": "m", "properties": {"n": {"description": "m.n"}}},
                            "l": {"type": "array", "description": "l", "items": {"properties": {"p": {}}}},
                            "g": {"$ref": "#/$defs/shared", "description": "g"},
                            "tol": {"type": "number", "x-stage": "analysis", "description": "tol"},
                        },
                    },
                ]
            }
        },
    }
    rows = dict(configdoc.key_rows(root["properties"]["sec"], root))
    assert list(rows) == ["a", "m", "m.n", "l", "l[].p", "g", "tol"]  # g's keys are documented under $defs
    assert (
        configdoc.description_of(rows["a"], root) == "shared a" and configdoc.description_of(rows["l[].p"], root) == ""
    )
    text = configdoc.render(root)
    assert "| `tol` | number | *analysis key*: tol |" in text and "| `m.n` | any | m.n |" in text


def test_schema_types_are_read_off_the_constraints():
    from privtest_workflow import configdoc

    root = {"$defs": {"p": {"type": "number", "exclusiveMinimum": 0, "maximum": 1}}}
    assert configdoc.type_of({"$ref": "#/$defs/p"}, root) == "number in (0, 1]"
    assert configdoc.type_of({"type": "array", "items": {"type": "integer", "minimum": 1}}, root) == (
        "list of integer >= 1"
    )
    assert configdoc.type_of({"enum": ["a", "b"]}, root) == "one of: a, b"
    assert configdoc.type_of({"allOf": [{"$ref": "#/$defs/p"}]}, root) == "number in (0, 1]"


def test_index_cuts_a_caption_at_its_first_sentence_not_at_an_abbreviation():
    outputs = [
        docs.OutputInfo("fig_oc", "figure", "S", "# fig_oc: Baselines of Cohen et al. (2024), e.g. eq. (16). **More.**")
    ]
    page = docs.index_page(outputs, CLAIMS[CLAIMS.experiment == "fig_oc"])
    assert "[`fig_oc`](fig_oc.md): Baselines of Cohen et al. (2024), e.g. eq. (16) (" in page and "More" not in page


LONG_RUN = {
    "key": "long", "run": "long", "command": "snakemake --configfile config/long.yaml", "wall_s": 600.0,
    "where": "copy", "notes": "nice 5",
    "long": {
        "commit": "abc1234", "cores": 2, "cpu_s": 1234.4, "jobs": {"simulate": 7, "check": 7, "all": 1},
        "machine": "shared 2-core machine", "verdicts_default": {"PASS": 5, "INCONCLUSIVE": 3},
        "verdicts_long": {"PASS": 7, "INCONCLUSIVE": 1}, "inconclusive_after": {"pass": 2, "inconclusive": 1},
        "longest_jobs": [{"rule": "simulate", "id": "fig_co_crossover", "s": 250.4},
                         {"rule": "check", "id": "x", "s": 1.2}],
    },
}  # fmt: skip


def test_long_summary_renders_the_measured_long_run():
    body = docs.long_summary({"runs": [LONG_RUN]})
    assert "commit `abc1234` on a shared 2-core machine with `--cores 2`: 10.0 min wall time (nice 5)" in body
    assert "1234 CPU seconds in the jobs that reran (7 simulate, 7 check)" in body
    assert "Longest jobs (wall time): simulate fig_co_crossover 250 s, check x 1 s." in body
    assert "| **PASS** | 5 | 7 |" in body and "| **INCONCLUSIVE** | 3 | 1 |" in body and "| **FAIL** | 0 | 0 |" in body
    assert "Of the default run's 3 INCONCLUSIVE claims, 2 are PASS" in body and "1 stay INCONCLUSIVE" in body
    assert docs.long_summary({"runs": []}) == docs.LONG_PENDING.format(key="long")
    assert "10.0 min wall time, 1234 CPU" in docs.long_summary({"runs": [LONG_RUN | {"notes": ""}]})  # no "()"
    idle = LONG_RUN | {"long": LONG_RUN["long"] | {"machine": "idle 2-core machine"}}
    assert "on an idle 2-core machine" in docs.long_summary({"runs": [idle]})
    assert "config/scale.yaml" in docs.long_summary({"runs": [LONG_RUN]}, "scale")  # another key: not measured yet
    assert docs.standard_blocks(None, {"runs": [LONG_RUN]}, [])["long.summary"] == body


@pytest.mark.parametrize(
    "change, word", [({"cpu_s": None}, "cpu_s"), ({"verdicts_long": {"PASS": 1.5}}, "verdicts_long")]
)
def test_long_summary_refuses_a_malformed_record(change, word):
    record = {k: v for k, v in LONG_RUN["long"].items() if change.get(k, 0) is not None} | {
        k: v for k, v in change.items() if v is not None
    }
    with pytest.raises(ValueError, match=word):
        docs.long_summary({"runs": [LONG_RUN | {"long": record}]})


def test_split_analysis_tables_repeat_their_key_columns():
    frame = pd.DataFrame(
        {"scenario": ["a", "a", "b"], "t": [1, 2, 1], "kind": ["p"] * 3, "none": [float("nan")] * 3}
        | {f"x{i}": [0.5, 1.5, 2.5] for i in range(14)}
    )
    assert docs.key_columns(frame) == ["scenario", "t"]  # the shortest prefix naming every row, constants skipped
    assert docs.key_columns(frame.drop(columns="t")) == ["scenario", "x0"]
    assert docs.key_columns(pd.DataFrame({"x": [0.1, 0.1], "y": [1.0, 1.0]})) == []
    text = docs.analysis_table(frame, max_rows=2)
    parts = [line for line in text.splitlines() if line.startswith("| scenario |")]
    assert len(parts) == 2 and all(line.startswith("| scenario | t | x") for line in parts)
    assert "*Part 2 of 2*" in text and "| a | 2 | " in text
    assert "(1 more rows in the .csv; the same in every row: `kind` = p; empty in every row: `none`.)" in text
    with pytest.raises(ValueError, match="most must be"):
        docs.key_columns(frame, most=-1)


def test_analysis_tables_that_repeat_the_plotted_data_are_linked_not_drawn():
    info = docs.OutputInfo("fig_oc", "figure", "S", "# fig_oc: One GTM step.")
    plotted = pd.DataFrame({"t": [1, 2, 3], "p": [0.25, 0.5, 1 / 3], "panel": ["a", "a", "b"]})
    analysis = {
        "series": pd.DataFrame({"q": [9.5, 8.5]}),  # named series: the figure's series by convention
        "again": pd.DataFrame({"t": [1, 3], "p": [0.25, 0.3333333333]}),  # rows of the plotted data (10 digits)
        "other": pd.DataFrame({"t": [1, 2], "p": [0.25, 0.75]}),  # a row that is not plotted
    }
    assert docs.repeats_data(analysis["again"], [plotted]) and not docs.repeats_data(analysis["other"], [plotted])
    assert not docs.repeats_data(analysis["again"].iloc[:0], [plotted])
    page = docs.result_page(info, CLAIMS[CLAIMS.experiment == "fig_oc"], {}, analysis=analysis, data=[plotted])
    linked = "the output's data, its rows are in `figures/data/fig_oc.csv`."
    assert page.count(linked) == 2 and "| 9.5 |" not in page and "| 2 | 0.75 |" in page


def test_a_table_page_previews_each_markdown_table_and_links_the_file():
    md = "# T\n\nIntro.\n\n| a | b |\n|---|---|\n" + "".join(f"| {i} | x |\n" for i in range(15)) + "\nAfter.\n"
    info = docs.OutputInfo("table1", "table", "T", "# table1: Table 1.")
    page = docs.result_page(info, CLAIMS[CLAIMS.experiment == "table1"], {}, table_md=md)
    assert "Intro." in page and "After." in page and "| 9 | x |" in page and "| 10 | x |" not in page
    assert "(5 more rows in [`figures/table1.md`](../../figures/table1.md).)" in page


#: Claims naming results in several spellings of one source list, with parts and outside sources.
INDEXED = _claims(
    [
        {"claim_id": "lt.a[T=1]", "source": "Thm 46(2),(4), eq. 25", "experiment": "table1", "verdict": "PASS"},
        {"claim_id": "lt.b[T=1]", "source": "Thm 46(2),(4), eq. 25, Cor 30", "experiment": "table1", "verdict": "PASS"},
        {"claim_id": "lt.moreover[T=1]", "source": "Thm 46(3) 'moreover'", "experiment": "table1", "verdict": "ERRATUM",
         "note": 'refuted; ERRATA.md entry "Theorem 46(3): the printed bound cannot hold"'},
        {"claim_id": "t1.gtm", "source": "Table 1 (GTM)", "experiment": "table1", "verdict": "PASS"},
        {"claim_id": "t1.n", "source": "Thm 31 (Remark 32)", "experiment": "table1", "verdict": "PASS"},
        {"claim_id": "co.utility[s,eps=1]", "source": "Thm 42(2)", "experiment": "table2", "verdict": "VACUOUS",
         "note": "not binding on this input: its value here is -4e+06. more"},
        {"claim_id": "co.utility[s,eps=2]", "source": "Thm 42(2)", "experiment": "fig_co", "verdict": "VACUOUS",
         "note": "not binding on this input: its value here is -2e+06."},
        {"claim_id": "co.calls[s]", "source": "Thm 42(3), Cor 35(3)", "experiment": "table2", "verdict": "PASS"},
        {"claim_id": "audit.x", "source": "Dwork-Roth Thm 3.24", "experiment": "fig_audit", "verdict": "PASS"},
    ]
)  # fmt: skip
INDEXED_OUTPUTS = ["fig_co", "fig_audit", "table1", "table2"]


def test_paper_results_are_listed_once_each_in_the_papers_order_with_their_parts():
    mine = INDEXED[INDEXED.experiment == "table1"]
    assert docs.paper_results(mine) == "Table 1, Cor 30, Thm 31, Remark 32, Thm 46(2),(3),(4)"
    linked = docs.paper_results(mine, link="../paper_index.md#{}")
    assert linked.startswith("[Table 1](../paper_index.md#table-1), [Cor 30](../paper_index.md#cor-30)")
    page = docs.result_page(docs.OutputInfo("table1", "table", "T", "# table1: Table 1."), mine, {})
    line = next(x for x in page.splitlines() if x.startswith("**Paper results tested.**"))
    labels = re.findall(r"\[([^\]]+)\]", line)
    assert labels == ["Table 1", "Cor 30", "Thm 31", "Thm 46(2),(3),(4)"] and len(set(labels)) == len(labels)
    assert ", Remark 32, [Thm 46" in line  # a remark is context: named, not linked (it has no row in the index)
    # the ERRATUM rows say which result they concern and which ERRATA.md entry records it
    assert (
        '- **ERRATUM** 1: `lt.moreover` (Thm 46(3)); [`ERRATA.md`](../../ERRATA.md): Theorem 46(3): the printed bound '
        "cannot hold" in page
    )  # fmt: skip
    outside = docs.result_page(
        docs.OutputInfo("fig_audit", "figure", "T", "# x: y."), INDEXED[INDEXED.experiment == "fig_audit"], {}
    )
    assert "**Also checked, outside the paper.** Dwork and Roth (2014)" in outside
    assert "**Paper results tested.**" not in outside


def test_committed_result_pages_list_each_paper_result_once():
    for path in sorted((ROOT / "docs/results").glob("*.md")):
        for line in path.read_text().splitlines():
            if line.startswith("**Paper results tested.**"):
                labels = re.findall(r"\[([^\]]+)\]\(", line)
                assert labels and len(labels) == len(set(labels)), (path.name, line)


def test_paper_index_has_one_row_per_result_in_paper_order_and_the_reason_for_each_untested_one():
    from privtest_artifact import paper

    text = docs.paper_index(INDEXED, INDEXED_OUTPUTS)
    tested, untested, outside = (text.split("\n## ")[i] for i in (1, 2, 3))
    rows = re.findall(r'<a id="([^"]+)"></a>', tested)
    assert rows == ["table-1", "cor-30", "thm-31", "cor-35", "thm-42", "thm-46"]  # paper order, each once
    thm46 = next(x for x in tested.splitlines() if 'id="thm-46"' in x).split(" | ")
    assert thm46[3:9] == ["3", "2", "0", "0", "0", "1"]  # claims, then per verdict
    assert thm46[9] == "(2) 2 PASS; (3) 1 ERRATUM; (4) 2 PASS" and "[`table1`](results/table1.md)" in thm46[11]
    thm42 = next(x for x in tested.splitlines() if 'id="thm-42"' in x)
    assert "(2) 2 VACUOUS; (3) 1 PASS" in thm42 and thm42.index("fig_co") < thm42.index("table2")  # catalogue order
    indexed = [r for r in paper.RESULTS if r.kind in paper.INDEXED_KINDS]
    assert len(re.findall(r'<a id="', untested)) == len(indexed) - len(rows)
    assert f"| {paper.UNTESTED['Alg 1']} |" in untested  # the reason, from privtest_artifact.paper
    assert "Dwork and Roth (2014)" in outside and "| 1 | 1 PASS |" in outside


def test_established_says_what_is_not_binding_which_rows_stand_in_and_links_the_definitions():
    text = docs.established(INDEXED)
    assert text.startswith(f"{docs.counts_sentence(INDEXED)}; they test 6 results of the paper")
    assert f"[docs/claims.md]({docs.VERDICTS_DOC})" in text and f"]({docs.PAPER_INDEX})" in text
    # all claims of Thm 42(2) are VACUOUS: said, with the values their notes state (median of -4e6 and -2e6)
    assert "Not tested in a binding way: Thm 42(2) (Batch-to-Continual-Observation reduction).** All 2 of" in text
    assert "between -4.0e+06 and -2.0e+06 (median -3.0e+06)" in text
    # Table 2's rows from privtest_artifact.outputs.table2.ROWS: stand-ins, the cited algorithm, evaluated
    assert "rows 3, 4, 5, 6 run stand-in batch algorithms, not the cited ones; row 1 runs the cited one; row 2 is " \
           "evaluated from its bound, not run" in text  # fmt: skip
    assert "**Errata (1 ERRATUM):** 1 of Thm 46(3) (`lt.moreover`) ([ERRATA.md](ERRATA.md))." in text
    for meaning in _verdict_meanings().values():  # linked, never restated
        assert meaning not in text
    with pytest.raises(ValueError, match="must state its value"):
        docs.established(INDEXED.assign(note=""))


def _verdict_meanings() -> dict[str, str]:
    """The meaning column of the verdict table of docs/claims.md, the one place the verdicts are defined."""
    text = (ROOT / "docs/claims.md").read_text().split("## Verdicts", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| \*\*([A-Z]+)\*\* \| ([^|]+) \|", text, re.M)
    return {v: m.strip() for v, m in rows}


def test_verdicts_are_defined_in_docs_claims_only_and_linked_from_everywhere_else():
    meanings = _verdict_meanings()
    assert list(meanings) == list(VERDICTS)
    documents = [ROOT / d for d in ("README.md", "ARTIFACT-APPENDIX.md", "CONTRIBUTING.md", "ERRATA.md")]
    documents += [p for p in (ROOT / "docs").rglob("*.md") if p.name != "claims.md"] + [ROOT / "figures/claims.md"]
    old = ("the statement holds (exact computation", "the sample is too small; the note says")  # the former copies
    for path in documents:
        text = path.read_text()
        for phrase in (*meanings.values(), *old):
            assert phrase not in text, (path, phrase)
    for path in (ROOT / "README.md", ROOT / "docs/findings.md", ROOT / "docs/results/README.md"):
        assert "claims.md#verdicts" in path.read_text(), path


def test_the_run_time_table_is_written_once_and_says_the_load_once_per_row():
    holders = [d for d in DOCUMENTS if "generated:runtimes" in (ROOT / d).read_text()]
    assert holders == ["ARTIFACT-APPENDIX.md"]
    assert "ARTIFACT-APPENDIX.md#a4-evaluation-workflow" in (ROOT / "README.md").read_text()
    table = docs.runtime_table(json.loads((ROOT / "benchmarks/reproduction_time.json").read_text()))
    for row in table.splitlines()[2:]:
        assert row.count("load average") <= 1 and "no .venv" not in row, row


def test_the_established_values_of_thm42_2_are_those_of_the_analysis_tables():
    """The README's value of Theorem 42(2)'s explicit guarantee comes from the VACUOUS claims' notes; each is the
    guarantee of one line (stream, eps) of an analysis table (``guarantee_max``, or ``guarantee_va_hi_max`` where
    finite: privtest_artifact.outputs._co.utility_claim, table2.claims), so the two agree value for value."""
    from privtest_artifact.claims import fmt
    from privtest_artifact.io import read_analysis

    claims = pd.read_csv(ROOT / "figures/claims.csv", dtype=str, keep_default_na=False)
    mine = claims[(claims["source"] == "Thm 42(2)") & (claims["verdict"] == "VACUOUS")]
    from_notes = sorted(fmt(docs._vacuous_value(n)) for n in mine["note"])
    from_tables = []
    for d in sorted((ROOT / "results/analysis").iterdir()):
        for frame in read_analysis(d).values() if d.is_dir() else ():
            if "guarantee_max" in frame:
                hi, g = frame["guarantee_va_hi_max"].astype(float), frame["guarantee_max"].astype(float)
                from_tables += [fmt(v) for v in hi.where(hi.notna(), g).dropna()]
    assert len(mine) > 0 and from_notes == sorted(from_tables)
