"""The office of a session on disk: materialise, confine paths, parse, diff, and the shell sandbox."""
