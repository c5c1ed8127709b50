# Run by GodotImportTests (godot3 --path PROJECT -s regex_probe.gd): one RegEx.sub, the call Godot 3's glTF
# importer makes on every name it sanitises, then quits. Godot 3.2.3 as Debian 12 ships it links the system
# PCRE2 10.42, whose pcre2_match hands Godot's allocator a NULL pointer to free; Godot prints
# `free_static: Condition "p_ptr == __null" is true` (core/os/memory.cpp:158) for it. The test counts those
# lines here, where no glTF is involved, to know how many each importer RegEx call prints.
extends SceneTree

func _init():
	var regex = RegEx.new()
	regex.compile("([^a-zA-Z0-9_ -]+)")
	print("regex_probe: ", regex.sub("Scene", "", true))
	quit()
