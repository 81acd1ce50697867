"""`python -m watercolor.compare`: lay training runs side by side (watercolor/analysis/comparison.py
says what it reads and writes; `--help` lists the ways to name the runs). The arguments are
read and checked (`watercolor.analysis.compare_args`) before the comparison's code loads."""

from collections.abc import Sequence

from watercolor.analysis import compare_args


def main(argv: Sequence[str] | None = None) -> None:
    args = compare_args.parse_args(argv)
    from watercolor.analysis import comparison  # mlflow, matplotlib, scipy: after the arguments

    comparison.run(args)


if __name__ == "__main__":
    main()
