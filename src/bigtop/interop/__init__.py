"""Adapters to OpenSpiel and PettingZoo (optional extras, imported lazily).

Nothing here is imported by the core. Import what you need:

* :mod:`bigtop.interop.openspiel` (``pip install bigtop[openspiel]``): registers every game
  with ``pyspiel`` as ``bigtop_<name>``;
* :mod:`bigtop.interop.pettingzoo` (``pip install bigtop[pettingzoo]``): ``env(game,
  players=N, **options)``, a PettingZoo AEC environment;
* :mod:`bigtop.interop.tensors`: fixed-size observation tensors (numpy only);
* :mod:`bigtop.interop.common`: the returns both adapters pay.

See docs/interop.md.
"""
