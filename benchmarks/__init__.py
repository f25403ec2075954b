"""Speed and memory benchmarks (``make bench``): never timed assertions in tests."""
