"""The paper's experiments, one module each (installed as ``tdadp.pipelines``).

Run them with ``tdadp run NAME``; ``tdadp list`` shows them.
"""
