/// The scene played when no scenario is given (`docksim` without `--scenario`, `dockd
/// --simulator`): the default dock, and one person standing 3 m in front of it, swaying a little,
/// for an hour.
extension Scenario {
    /// The default scene's text, in the scenario format.
    public static let defaultSceneText = """
        {
          "name": "default",
          "description": "One person stands in front of the dock for an hour.",
          "duration_s": 3600,
          "seed": 1,
          "subjects": [
            {"id": 1, "kind": "person", "primary": true,
             "path": {"random_walk": {"start_x_m": 0, "start_y_m": 3, "speed_m_s": 0.15,
                                      "x_min_m": -0.5, "x_max_m": 0.5, "y_min_m": 2.7, "y_max_m": 3.3, "turn_s": 4}}}
          ]
        }
        """

    /// The default scene.
    public static var defaultScene: Scenario {
        do {
            return try parse(defaultSceneText)
        } catch {
            preconditionFailure("the built-in scene is invalid: \(error)")
        }
    }
}
