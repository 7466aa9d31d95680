"""``byapar serve``: the web table and the versioned JSON decision API (installed as
``byapar_serve``)."""
