"""Readable Markdown tables (src/privtest_artifact/tables.py): at most MAX_MD_COLUMNS columns per table, wide tables
split or pivoted with their key columns repeated (the full table stays in the .csv)."""

import pandas as pd
import pytest

from privtest import bounds
from privtest.co import tables as co_tables
from privtest_artifact import tables
from privtest_artifact.tables import co_table_markdown


def test_wide_table_is_split_with_its_keys_repeated():
    wide = pd.DataFrame({f"c{i}": [i, i + 0.5] for i in range(31)})
    text = tables.markdown_tables(wide, ["c0", "c1"])
    counts = tables.markdown_column_counts(text)
    assert counts == [12, 12, 11]  # 29 other columns: 10 + 10 + 9, each table with the 2 keys
    assert text.count(" c0 |") == 3 and all(f" c{i} |" in text for i in range(31))
    assert "Part 3 of 3" in text


def test_narrow_table_stays_one_table():
    df = pd.DataFrame({"a": [1], "b": [2.0]})
    text = tables.markdown_tables(df, ["a"])
    assert tables.markdown_column_counts(text) == [2] and "Part" not in text


@pytest.mark.parametrize("max_columns", [0, 1, 2])
def test_markdown_tables_rejects_too_few_columns(max_columns):
    with pytest.raises(ValueError, match="max_columns"):
        tables.markdown_tables(pd.DataFrame({"a": [1], "b": [2], "c": [3]}), ["a", "b"], max_columns=max_columns)


def test_pivot_bracketed_makes_one_row_per_key():
    df = pd.DataFrame({"w": ["x", "y"], "n": [1, 2], "r[A]": [0.1, 0.2], "r[B]": [0.3, None], "s[A]": [5, 6]})
    plain, long = tables.pivot_bracketed(df, ["w"], "method")
    assert list(plain.columns) == ["w", "n"]
    assert long[["w", "method", "r"]].to_dict("list") == {"w": ["x", "x", "y"], "method": ["A", "B", "A"],
                                                          "r": [0.1, 0.3, 0.2]}  # fmt: skip
    assert long["s"].iloc[0] == 5 and pd.isna(long["s"].iloc[1])  # no s[B]: missing, not dropped
    with pytest.raises(ValueError, match="keys"):
        tables.pivot_bracketed(df, ["nope"], "method")
    with pytest.raises(ValueError, match="key_name"):
        tables.pivot_bracketed(df, ["w"], "n")


def test_column_counts_read_escaped_pipes_and_empty_headers():
    text = "\n".join(tables.markdown_lines(["", "a", "b"], [["x|y", "1", "2"]]))
    assert tables.markdown_column_counts(text) == [3]


def test_table1_and_co_tables_markdown_within_the_cap():
    df = pd.DataFrame([{c: 1.0 for c in tables.TABLE1_MD_COLUMNS}])
    counts = tables.markdown_column_counts(tables.table1_md(df))
    assert len(counts) == 3 and max(counts) <= tables.MAX_MD_COLUMNS
    assert len(bounds.TABLE1_METHODS) + 1 <= tables.MAX_MD_COLUMNS
    for rows in (co_tables.SUBMODULAR_ROWS,):
        assert max(tables.markdown_column_counts(co_table_markdown(rows, "t"))) <= tables.MAX_MD_COLUMNS
