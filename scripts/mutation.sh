#!/usr/bin/env bash
# Mutation testing with mutmut (configured in pyproject.toml, [tool.mutmut]); not part of .ci/run.
#
#   scripts/mutation.sh changed [BASE]   mutate the modules of components/ (the package, facts/, placement/,
#                                        stackcheck/ included) that differ from BASE (default: main), committed or not
#   scripts/mutation.sh all              mutate every module of the package
#   scripts/mutation.sh module NAME...   mutate the named modules, for example components.placement.guard
#   scripts/mutation.sh score [PREFIX]   the score of the last runs, per package, and the surviving mutants
#
# mutmut copies the project into mutants/, records once which tests call each function, then runs only
# those tests against each of that function's mutants. Results persist in mutants/: a later run skips
# mutants already tried unless named. Inspect one with `mutmut show NAME`. JOBS (default 1) sets the workers.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-.venv/bin/python}"
JOBS="${JOBS:-1}"
# The mutated copy runs from mutants/: point the tests at the real checkov environment.
export CHECKOV_BIN="${CHECKOV_BIN:-$PWD/.venv-checkov/bin/checkov}"
# gRPC logs a line per forked worker otherwise.
export GRPC_VERBOSITY="${GRPC_VERBOSITY:-ERROR}"
PACKAGES=(components)

# mutmut names mutants <module>.x_<function>__mutmut_<n> (methods: <module>.xǁ<Class>ǁ<method>__mutmut_<n>).
pattern_of() {
  local module="${1%.py}"
  module="${module//\//.}"
  if [[ "$module" == *.__init__ ]]; then
    echo "${module%.__init__}.x*"
  else
    echo "${module}.*"
  fi
}

run() {
  if [[ $# -eq 0 ]]; then
    echo "no module of ${PACKAGES[*]} to mutate"
    return 0
  fi
  echo "mutating: $*"
  nice "$PYTHON" -m mutmut run --max-children "$JOBS" "$@"
}

case "${1:-}" in
  changed)
    base="${2:-main}"
    mapfile -t files < <({ git diff --name-only "$base"...HEAD; git diff --name-only HEAD; } \
      | grep -E "^($(IFS='|'; echo "${PACKAGES[*]}"))/.*\.py$" | sort -u \
      | while read -r file; do [[ -f "$file" ]] && echo "$file"; done)
    patterns=()
    for file in "${files[@]}"; do patterns+=("$(pattern_of "$file")"); done
    run "${patterns[@]}"
    ;;
  all)
    run
    ;;
  module)
    shift
    patterns=()
    for name in "$@"; do patterns+=("$(pattern_of "${name//.//}.py")"); done
    run "${patterns[@]}"
    ;;
  score)
    "$PYTHON" -m mutmut results --all true | "$PYTHON" scripts/mutation_score.py "${2:-}"
    ;;
  *)
    sed -n '2,13p' "$0"
    exit 2
    ;;
esac
