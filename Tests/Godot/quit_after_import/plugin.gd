# An editor plugin GodotImportTests enables in its project (addons/quit_after_import): when the editor has
# imported the project's new files (EditorFileSystem's `resources_reimported`), it quits the way closing
# the window does (NOTIFICATION_WM_QUIT_REQUEST, then the "Exit the editor?" confirmation accepted), so that
# the editor stops its preview thread before the scene tree goes (EditorNode::_exit_editor).
# Debian's Godot 3.2.3 editor started with `-e --quit` imported MatchScene's scene.glb but did not quit
# (still running 15 minutes later; it did quit after a one-node glTF); this quits it when the import is done.
tool
extends EditorPlugin

func _enter_tree():
	get_editor_interface().get_resource_filesystem().connect("resources_reimported", self, "_reimported")

func _reimported(files):
	print("quit_after_import: imported ", files)
	var editor = get_parent()  # EditorNode: plugins are its children
	editor.notification(MainLoop.NOTIFICATION_WM_QUIT_REQUEST)
	if get_editor_interface().get_editor_settings().get_setting("interface/editor/quit_confirmation"):
		editor._menu_confirm_current()
