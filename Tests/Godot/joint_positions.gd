# Run by GodotImportTests inside Godot 3 (godot3 --path PROJECT -s joint_positions.gd) after the editor has
# imported PROJECT/scene.glb: reads PROJECT/request.json, {"animation": "match", "probes": [{"track": "P1",
# "joint": "right_wrist", "time": 1.5}, ...]}, plays the imported AnimationPlayer's animation to each time and
# writes PROJECT/result.json, {"positions": [[x, y, z], ...]}: each joint's position in the calibration world
# (the frame below the root node `matchscene`, metres), from its skeleton bone's global pose.
extends SceneTree

func _init():
	var file = File.new()
	if file.open("res://request.json", File.READ) != OK:
		printerr("joint_positions.gd: cannot read request.json")
		quit(1)
		return
	var request = parse_json(file.get_as_text())
	file.close()
	var scene = load("res://scene.glb").instance()
	root.add_child(scene)
	var player = scene.find_node("AnimationPlayer", true, false)
	var world = scene.find_node("matchscene*", true, false)
	var positions = []
	for probe in request["probes"]:
		player.play(request["animation"])
		player.seek(float(probe["time"]), true)
		var person = world.find_node(probe["track"], false, false)
		var skeleton = null
		for child in person.get_children():
			if child is Skeleton:
				skeleton = child
		var bone = skeleton.find_bone(probe["joint"])
		if bone < 0:
			printerr("joint_positions.gd: no bone " + probe["joint"] + " under " + probe["track"])
			quit(1)
			return
		var global = skeleton.global_transform.xform(skeleton.get_bone_global_pose(bone).origin)
		# Back from Godot's y-up frame into the calibration world below the root node (z up).
		var local = world.global_transform.affine_inverse().xform(global)
		positions.append([local.x, local.y, local.z])
	var out = File.new()
	out.open("res://result.json", File.WRITE)
	out.store_string(to_json({"positions": positions}))
	out.close()
	quit(0)
