package memory

// regenCfg is Regen with root's configuration read first, as
// append --regen reads it.
func regenCfg(root string, force bool) ([]string, error) {
	cfg, err := LoadConfig(root)
	if err != nil {
		return nil, err
	}
	return Regen(root, cfg, force)
}
