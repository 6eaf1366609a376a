"""The tests. Compiled modules are kept between runs even where PYTHONDONTWRITEBYTECODE is set:
compiling (and rewriting the asserts of) some 150 test modules and the 89 modules of the
plugins pytest rewrites too (Hypothesis, imported by the root conftest) is seconds of every
run, in every worker. Set here, before any conftest imports them."""

import sys

sys.dont_write_bytecode = False
