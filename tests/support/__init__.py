"""Harness code shared by the tests and the benchmark scripts.

The server stack with its proxy, players that play through websockets from the HTML
alone, the hidden-information audit, the fault players and their audit, the frame
fuzzer and its judge, the Brag chip-conservation check. Benchmarks import from here;
tests never import ``benchmarks/`` (``tests/test_layout.py``).
"""
