"""`python -m watercolor.compare`: lay training runs side by side (watercolor/analysis/comparison.py
says what it reads and writes; `--help` lists the ways to name the runs)."""

from watercolor.analysis.comparison import main

if __name__ == "__main__":
    main()
