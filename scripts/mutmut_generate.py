"""Generate mutmut's mutants into mutants/ without its statistics step or any mutant run.

    nice -n 19 .venv/bin/python scripts/mutmut_generate.py

The first steps of `mutmut run` (mutmut 3.8.1, `__main__._run`): copy the sources and `also_copy`, then write each
module's mutants and its `.meta` file, which `scripts/mutation_sample.py` draws from. One process.
"""

from __future__ import annotations

import os

from mutmut import __main__ as mutmut_main


def main() -> None:
    mutmut_main.set_mutant_under_test("mutant_generation")
    os.makedirs("mutants", exist_ok=True)
    mutmut_main.copy_src_dir()
    mutmut_main.copy_also_copy_files()
    mutmut_main.setup_source_paths()
    mutmut_main.store_lines_covered_by_tests()
    print(mutmut_main.create_mutants(1))


if __name__ == "__main__":
    main()
