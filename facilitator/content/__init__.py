"""Content packs, for every game: the refusal of an imported pack (``importing``). Each game's
sample pack lies with its engine (``rules/<game>/sample_pack.json``) and its deck files in its
package (``games/<game>/``)."""
