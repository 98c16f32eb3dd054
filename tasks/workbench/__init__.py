"""WorkBench, imported: reading its checkout (source.py), the importer (importer.py) and our overlay of
corrections (overlay/). The benchmark's own files are read from a checkout, never kept here."""
