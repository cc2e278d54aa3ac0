"""The module in an interpreter without numpy (as the pyenv python3 on the CI image): it imports,
solves (rows as array.array('I')), verifies lists, and names what is missing where numpy is
needed."""
import subprocess
import sys

import nqueens


def run_without_numpy(code):
    """Runs `code` in this interpreter with numpy made unimportable; its stdout and stderr."""
    done = subprocess.run([sys.executable, "-c", "import sys; sys.modules['numpy'] = None\n" + code],
                          capture_output=True, text=True, timeout=60, check=False)
    return done.returncode, done.stdout, done.stderr


def test_readme_line_works_without_numpy():
    code, out, err = run_without_numpy("import nqueens; print(nqueens.solve(8).rows)")
    assert code == 0, err
    assert out.strip() == "array('I', " + str(nqueens.solve(8).rows.tolist()) + ")"


def test_verify_and_solutions_work_without_numpy():
    code, out, err = run_without_numpy(
        "import nqueens\n"
        "print(nqueens.verify([1, 3, 0, 2])['valid'], nqueens.verify([0, 1, 2, 3])['conflicts'])\n"
        "print(sum(1 for _ in nqueens.solutions(8)))")
    assert code == 0, err
    assert out.split() == ["True", "6", "92"]


def test_what_needs_numpy_says_so():
    code, _, err = run_without_numpy("import nqueens; nqueens.solve(8, algo='hc', trace=True)")
    assert code == 1
    last = err.strip().splitlines()[-1]
    assert last.startswith("ImportError: solve(trace=True) needs numpy, which " + sys.executable)
    assert "the module was built for" in last
