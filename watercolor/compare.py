"""`python -m watercolor.compare`: lay training runs side by side (watercolor/analysis/compare.py
says what it reads and writes; `--help` lists the ways to name the runs)."""

from watercolor.analysis.compare import main

if __name__ == "__main__":
    main()
