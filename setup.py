"""The installable package is `components/` itself, installed as `eks_gpu_inference` (docs/architecture.md,
"Import name"). Everything under it imports its siblings relatively, so the wheel holds the repository's
files unchanged. Static metadata, package data and the commands are in pyproject.toml; setuptools takes the
renamed package list only from code: every package found under `components/`, so a new subpackage ships
without a change here.
"""

from setuptools import find_packages, setup

IMPORT_NAME = "eks_gpu_inference"
"""The one top-level name the installed package claims."""
SOURCE_DIR = "components"
"""The repository folder that is that package."""


def packages() -> list[str]:
    """The installed names of `components` and every package below it."""
    found = find_packages(include=[SOURCE_DIR, f"{SOURCE_DIR}.*"])
    return [IMPORT_NAME + name[len(SOURCE_DIR) :] for name in found]


if __name__ == "__main__":
    setup(packages=packages(), package_dir={IMPORT_NAME: SOURCE_DIR})
