// Written by scripts/embed-visca-profiles from Protocol/visca/*.json: edit those, then run it.
// swift-format-ignore-file
extension VISCAProfile {
    /// The committed profiles, file name and text, in file name order.
    static let builtInFiles: [(name: String, json: String)] = [
        (name: "generic.json", json: #"""
{
  "name": "generic",
  "display_name": "Generic VISCA camera",
  "source": "Conservative defaults, not one model. Speed steps and 14.4 counts per degree: the table that Telycam TLC-700-S (user manual p. 13, https://manualshive.com/ru/manual/telycam/tlc-700-s/1085198?page=16), Clevermic 4035UHS (p. 17) and Angekis Saber 4K (p. 24) print identically, a camera family that many unbranded PTZ cameras belong to; tilt is limited to step 18 (0x12), the lowest tilt maximum among the manuals read (HuddleCamHD and Vaddio take 0x14, Sony SRG-X400 0x17). Range: pan -170 to +170 degrees and tilt -30 to +90, which that family, PTZOptics and Sony EVI-D70 reach. Serial speeds in AutoPTZ's probe order (9600, then 115200 for USB heads, then 38400). Two sockets as in every manual. Completion is not taken as arrival.",
  "address": 1,
  "baud_rates": [
    9600,
    115200,
    38400
  ],
  "sockets": 2,
  "pan": {
    "counts_per_degree": 14.4,
    "minimum_degrees": -170,
    "maximum_degrees": 170,
    "speeds": [
      {"step": 1, "degrees_per_second": 1},
      {"step": 2, "degrees_per_second": 1.5},
      {"step": 3, "degrees_per_second": 2.2},
      {"step": 4, "degrees_per_second": 2.4},
      {"step": 5, "degrees_per_second": 2.6},
      {"step": 6, "degrees_per_second": 2.8},
      {"step": 7, "degrees_per_second": 3.0},
      {"step": 8, "degrees_per_second": 3.2},
      {"step": 9, "degrees_per_second": 3.4},
      {"step": 10, "degrees_per_second": 3.8},
      {"step": 11, "degrees_per_second": 4.5},
      {"step": 12, "degrees_per_second": 6},
      {"step": 13, "degrees_per_second": 9},
      {"step": 14, "degrees_per_second": 15},
      {"step": 15, "degrees_per_second": 19},
      {"step": 16, "degrees_per_second": 25},
      {"step": 17, "degrees_per_second": 32},
      {"step": 18, "degrees_per_second": 38},
      {"step": 19, "degrees_per_second": 45},
      {"step": 20, "degrees_per_second": 58},
      {"step": 21, "degrees_per_second": 75},
      {"step": 22, "degrees_per_second": 88},
      {"step": 23, "degrees_per_second": 105},
      {"step": 24, "degrees_per_second": 120}
    ]
  },
  "tilt": {
    "counts_per_degree": 14.4,
    "minimum_degrees": -30,
    "maximum_degrees": 90,
    "speeds": [
      {"step": 1, "degrees_per_second": 1},
      {"step": 2, "degrees_per_second": 1.5},
      {"step": 3, "degrees_per_second": 2.2},
      {"step": 4, "degrees_per_second": 3.6},
      {"step": 5, "degrees_per_second": 4.7},
      {"step": 6, "degrees_per_second": 6},
      {"step": 7, "degrees_per_second": 8},
      {"step": 8, "degrees_per_second": 10},
      {"step": 9, "degrees_per_second": 12},
      {"step": 10, "degrees_per_second": 15},
      {"step": 11, "degrees_per_second": 18},
      {"step": 12, "degrees_per_second": 23},
      {"step": 13, "degrees_per_second": 30},
      {"step": 14, "degrees_per_second": 39},
      {"step": 15, "degrees_per_second": 48},
      {"step": 16, "degrees_per_second": 59},
      {"step": 17, "degrees_per_second": 69},
      {"step": 18, "degrees_per_second": 80}
    ]
  },
  "zoom": {
    "minimum": 0,
    "maximum": 16384,
    "maximum_speed": 7,
    "full_travel_seconds": 3,
    "magnification": [
      {"position": 0, "magnification": 1},
      {"position": 6017, "magnification": 2},
      {"position": 8507, "magnification": 3},
      {"position": 10066, "magnification": 4},
      {"position": 11187, "magnification": 5},
      {"position": 12035, "magnification": 6},
      {"position": 13156, "magnification": 8},
      {"position": 13868, "magnification": 10},
      {"position": 14442, "magnification": 12},
      {"position": 15098, "magnification": 15},
      {"position": 15864, "magnification": 20},
      {"position": 16384, "magnification": 25}
    ],
    "source": "Positions 0 (wide) to 0x4000 (optical tele end), as the Telycam family's and PTZOptics' command lists give them. Magnification: the table 'Zoom Ratio and Zoom Position (for reference)' for the Sony x25 block lens that covers the same 0000-4000 optical range (Polycom Ceiling DocCam II manual, appendix p. 40, https://manualsdump.com/en/manuals/polycom-ceiling_doccam/205822/22), every second point kept: a camera whose lens zooms less is taken as zoomed in more than it is, which errs on the steady side (the tracker turns less than needed, never overshoots). Travel time: no manual read gives one; 3 s is assumed (PTZOptics' and Sony's published zoom speeds were not found)."
  },
  "preset_memory": null,
  "quirks": {
    "completion_without_ack": false,
    "one_speed_byte_in_position_moves": false,
    "udp_without_sequence_header": false,
    "completion_before_arrival": true
  }
}
"""#),
        (name: "sony-evi-d100.json", json: #"""
{
  "name": "sony-evi-d100",
  "display_name": "Sony EVI-D100",
  "source": "Sony EVI-D100/D100P technical manual (A-AYT-100-11): p. 18, RS-232C at 9600 bps only (http://www.manualsdir.com/manuals/144564/sony-evi-d100.html?page=18); p. 44, pan-tilt speed table, column D100/P: pan steps 0x01-0x18 from 2.0 to 300 degrees/s, tilt 0x01-0x14 from 2.0 to 125 degrees/s, every step listed (https://www.manualsdir.com/manuals/144564/sony-evi-d100.html?page=44); p. 45, pan 0xFA60 (-100 degrees) to 0x05A0 (+100), tilt 0xFE98 (-25) to 0x0168 (+25), i.e. 14.4 counts per degree (https://azmanual.top/manuals/144564/sony-evi-d100.html?page=45); p. 42, zoom 0x0000 (wide) to 0x7000 (tele, digital 4x; 0x4000 is the optical tele end) and zoom speeds 0 to 7.",
  "address": 1,
  "baud_rates": [
    9600
  ],
  "sockets": 2,
  "pan": {
    "counts_per_degree": 14.4,
    "minimum_degrees": -100,
    "maximum_degrees": 100,
    "speeds": [
      {"step": 1, "degrees_per_second": 2.0},
      {"step": 2, "degrees_per_second": 2.4},
      {"step": 3, "degrees_per_second": 3.0},
      {"step": 4, "degrees_per_second": 3.7},
      {"step": 5, "degrees_per_second": 4.7},
      {"step": 6, "degrees_per_second": 6.1},
      {"step": 7, "degrees_per_second": 7.4},
      {"step": 8, "degrees_per_second": 9.1},
      {"step": 9, "degrees_per_second": 11},
      {"step": 10, "degrees_per_second": 14},
      {"step": 11, "degrees_per_second": 18},
      {"step": 12, "degrees_per_second": 22},
      {"step": 13, "degrees_per_second": 27},
      {"step": 14, "degrees_per_second": 34},
      {"step": 15, "degrees_per_second": 42},
      {"step": 16, "degrees_per_second": 52},
      {"step": 17, "degrees_per_second": 65},
      {"step": 18, "degrees_per_second": 81},
      {"step": 19, "degrees_per_second": 100},
      {"step": 20, "degrees_per_second": 125},
      {"step": 21, "degrees_per_second": 155},
      {"step": 22, "degrees_per_second": 190},
      {"step": 23, "degrees_per_second": 240},
      {"step": 24, "degrees_per_second": 300}
    ]
  },
  "tilt": {
    "counts_per_degree": 14.4,
    "minimum_degrees": -25,
    "maximum_degrees": 25,
    "speeds": [
      {"step": 1, "degrees_per_second": 2.0},
      {"step": 2, "degrees_per_second": 2.4},
      {"step": 3, "degrees_per_second": 3.0},
      {"step": 4, "degrees_per_second": 3.7},
      {"step": 5, "degrees_per_second": 4.7},
      {"step": 6, "degrees_per_second": 6.1},
      {"step": 7, "degrees_per_second": 7.4},
      {"step": 8, "degrees_per_second": 9.1},
      {"step": 9, "degrees_per_second": 11},
      {"step": 10, "degrees_per_second": 14},
      {"step": 11, "degrees_per_second": 18},
      {"step": 12, "degrees_per_second": 22},
      {"step": 13, "degrees_per_second": 27},
      {"step": 14, "degrees_per_second": 34},
      {"step": 15, "degrees_per_second": 42},
      {"step": 16, "degrees_per_second": 52},
      {"step": 17, "degrees_per_second": 65},
      {"step": 18, "degrees_per_second": 81},
      {"step": 19, "degrees_per_second": 100},
      {"step": 20, "degrees_per_second": 125}
    ]
  },
  "zoom": {
    "minimum": 0,
    "maximum": 28672,
    "maximum_speed": 7,
    "full_travel_seconds": 3,
    "magnification": [
      {"position": 0, "magnification": 1},
      {"position": 16384, "magnification": 10},
      {"position": 28672, "magnification": 40}
    ],
    "source": "Sony EVI-D100/D100P technical manual (A-AYT-100-11) p. 42 (http://www.manualowl.com/m/Sony/EVI-D100/Manual/359154?page=42): zoom position 0000h (wide) to 4000h (optical tele end) to 7000h (tele, digital 4x); 10x optical as Sony's specifications give the camera (p. 46). The points between the ends are not in the manual: magnification between them is taken as geometric in the position. Travel time: not in the manual; 3 s is assumed."
  },
  "preset_memory": {
    "count": 6,
    "source": "Sony EVI-D100/D100P technical manual (A-AYT-100-11) p. 3: 'up to six combinations of the camera's position and status can be memorized' (https://somanualss.com/html/22/Sony-EVI-D100-User-Manual.html); CAM_Memory 8x 01 04 3F 0a 0p FF with p 0 to 5 as the same family's EVI-D80/D90 manual gives it (p. 31, https://www.manualsdir.com/manuals/459399/vaddio-evi-d80d90-tech.html?page=31)."
  },
  "quirks": {
    "completion_without_ack": false,
    "one_speed_byte_in_position_moves": false,
    "udp_without_sequence_header": false,
    "completion_before_arrival": false
  }
}
"""#),
        (name: "telycam-tlc-700.json", json: #"""
{
  "name": "telycam-tlc-700",
  "display_name": "Telycam TLC-700",
  "source": "Telycam TLC-700-S user manual p. 13 (https://manualshive.com/ru/manual/telycam/tlc-700-s/1085198?page=16): 'VISCA PAN TILT SPEED VALUE' gives pan steps 1-24 (1 to 120 degrees/s) and tilt steps 1-18 (1 to 80 degrees/s), every step listed (its step 0, 0.3 degrees/s, is left out: dockd sends stop instead); 'VISCA PAN TILT ABSOLUTE POSITION VALUE' gives pan -170 degrees = 0xF670 and +170 = 0x0990, tilt -30 = 0xFE50 and +90 = 0x0510, i.e. 14.4 counts per degree on both axes. Zoom 0 to 0x4000 as the same family's command list gives it (LUMiO 12x); serial speeds 9600 and 38400 as the same family's manuals give them (topo T7E p. 69), 115200 as AutoPTZ reports for USB heads: not checked on a TLC-700.",
  "address": 1,
  "baud_rates": [
    9600,
    38400,
    115200
  ],
  "sockets": 2,
  "pan": {
    "counts_per_degree": 14.4,
    "minimum_degrees": -170,
    "maximum_degrees": 170,
    "speeds": [
      {"step": 1, "degrees_per_second": 1},
      {"step": 2, "degrees_per_second": 1.5},
      {"step": 3, "degrees_per_second": 2.2},
      {"step": 4, "degrees_per_second": 2.4},
      {"step": 5, "degrees_per_second": 2.6},
      {"step": 6, "degrees_per_second": 2.8},
      {"step": 7, "degrees_per_second": 3.0},
      {"step": 8, "degrees_per_second": 3.2},
      {"step": 9, "degrees_per_second": 3.4},
      {"step": 10, "degrees_per_second": 3.8},
      {"step": 11, "degrees_per_second": 4.5},
      {"step": 12, "degrees_per_second": 6},
      {"step": 13, "degrees_per_second": 9},
      {"step": 14, "degrees_per_second": 15},
      {"step": 15, "degrees_per_second": 19},
      {"step": 16, "degrees_per_second": 25},
      {"step": 17, "degrees_per_second": 32},
      {"step": 18, "degrees_per_second": 38},
      {"step": 19, "degrees_per_second": 45},
      {"step": 20, "degrees_per_second": 58},
      {"step": 21, "degrees_per_second": 75},
      {"step": 22, "degrees_per_second": 88},
      {"step": 23, "degrees_per_second": 105},
      {"step": 24, "degrees_per_second": 120}
    ]
  },
  "tilt": {
    "counts_per_degree": 14.4,
    "minimum_degrees": -30,
    "maximum_degrees": 90,
    "speeds": [
      {"step": 1, "degrees_per_second": 1},
      {"step": 2, "degrees_per_second": 1.5},
      {"step": 3, "degrees_per_second": 2.2},
      {"step": 4, "degrees_per_second": 3.6},
      {"step": 5, "degrees_per_second": 4.7},
      {"step": 6, "degrees_per_second": 6},
      {"step": 7, "degrees_per_second": 8},
      {"step": 8, "degrees_per_second": 10},
      {"step": 9, "degrees_per_second": 12},
      {"step": 10, "degrees_per_second": 15},
      {"step": 11, "degrees_per_second": 18},
      {"step": 12, "degrees_per_second": 23},
      {"step": 13, "degrees_per_second": 30},
      {"step": 14, "degrees_per_second": 39},
      {"step": 15, "degrees_per_second": 48},
      {"step": 16, "degrees_per_second": 59},
      {"step": 17, "degrees_per_second": 69},
      {"step": 18, "degrees_per_second": 80}
    ]
  },
  "zoom": {
    "minimum": 0,
    "maximum": 16384,
    "maximum_speed": 7,
    "full_travel_seconds": 3,
    "magnification": [],
    "source": "Positions 0 to 0x4000 as the same family's command list gives them (LUMiO 12x). No magnification table: the TLC-700's lens is not described by position in any manual read, so the field of view does not follow its zoom. Travel time: not in the manual; 3 s is assumed."
  },
  "preset_memory": null,
  "quirks": {
    "completion_without_ack": false,
    "one_speed_byte_in_position_moves": false,
    "udp_without_sequence_header": false,
    "completion_before_arrival": false
  }
}
"""#),
    ]
}
