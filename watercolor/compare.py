"""`python -m watercolor.compare`: lay training runs side by side (what it reads and writes:
docs/studies.md; `--help` lists the ways to name the runs). The arguments are
read and checked (`watercolor.analysis.compare_args`), and the runs found in their store, before
the comparison's plotting code loads: a typo, a path or a run that is not there answers at once."""

from collections.abc import Sequence

from watercolor.analysis import compare_args


def main(argv: Sequence[str] | None = None) -> None:
    args = compare_args.parse_args(argv)
    selected = None
    if args.records is None:
        from watercolor.analysis import records  # mlflow, not matplotlib

        selected = records.select_from_store(args)
    from watercolor.analysis import comparison  # matplotlib, scipy: after the checks

    comparison.run(args, selected)


if __name__ == "__main__":
    main()
