"""Scripts run by hand or by make: catalogs, the packing build, screenshots."""
