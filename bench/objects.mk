bench-images :=
