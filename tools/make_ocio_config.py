#!/usr/bin/python3
"""Writes hdrtone's bundled OCIO config (assets/ocio/config.ocio) from OpenColorIO 2.1's
builtin transforms, under the names of the ACES cg config, so that a user's own ACES config
behaves the same (docs/colour.md, "OCIO views"). Run with Debian's python3-pyopencolorio:
    /usr/bin/python3 tools/make_ocio_config.py assets/ocio/config.ocio
The reference space is ACES2065-1 (scene) and CIE XYZ with a D65 white (display). Where 2.1
has no builtin (the Rec. 2020 and P3-D65 primaries, Display P3's curve), the transform is a
matrix from the primaries to XYZ (no white change: both D65) or the sRGB curve's own
ExponentWithLinear parameters; every change of white goes through the builtin Bradford of
ACES AP0 <-> CIE-XYZ-D65."""
import sys

import PyOpenColorIO as ocio

D65 = (0.3127, 0.3290)
PRIMARIES = {"rec2020": ((0.708, 0.292), (0.170, 0.797), (0.131, 0.046)),
             "p3d65": ((0.680, 0.320), (0.265, 0.690), (0.150, 0.060))}
AP0_TO_XYZ = "UTILITY - ACES-AP0_to_CIE-XYZ-D65_BFD"
SDR = "ACES 1.0 - SDR Video"
HDR = "ACES 1.0 - HDR Video (1000 nits & Rec.2020 lim)"
UNTONED = "Un-tone-mapped"


def inv3(m):
    a, b, c, d, e, f, g, h, i = m
    det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
    return [(e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det,
            (f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det,
            (d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det]


def rgb_to_xyz(prim, white):
    """The RGB->XYZ matrix (row-major 3x3) of primaries PRIM and white WHITE (Y = 1)."""
    cols = [(x / y, 1.0, (1 - x - y) / y) for x, y in prim]
    p = [cols[c][r] for r in range(3) for c in range(3)]
    w = (white[0] / white[1], 1.0, (1 - white[0] - white[1]) / white[1])
    pi = inv3(p)
    s = [sum(pi[3 * r + c] * w[c] for c in range(3)) for r in range(3)]
    return [p[3 * r + c] * s[c] for r in range(3) for c in range(3)]


def m44(m):
    return [m[0], m[1], m[2], 0, m[3], m[4], m[5], 0, m[6], m[7], m[8], 0, 0, 0, 0, 1]


def builtin(style, inverse=False):
    return ocio.BuiltinTransform(style, ocio.TRANSFORM_DIR_INVERSE if inverse
                                 else ocio.TRANSFORM_DIR_FORWARD)


def srgb_curve(inverse):
    """The sRGB curve (IEC 61966-2-1): forward decodes, inverse encodes."""
    return ocio.ExponentWithLinearTransform(
        gamma=[2.4, 2.4, 2.4, 1.0], offset=[0.055, 0.055, 0.055, 0.0],
        direction=ocio.TRANSFORM_DIR_INVERSE if inverse else ocio.TRANSFORM_DIR_FORWARD)


def linear_from_xyz_primaries(key):
    """Linear RGB of primaries KEY (white D65) -> ACES2065-1: to XYZ, then the builtin
    Bradford XYZ-D65 -> AP0."""
    return ocio.GroupTransform([ocio.MatrixTransform(m44(rgb_to_xyz(PRIMARIES[key], D65))),
                                builtin(AP0_TO_XYZ, inverse=True)])


def space(name, to_ref, family, encoding, desc, aliases=(), isdata=False,
          ref=ocio.REFERENCE_SPACE_SCENE):
    cs = ocio.ColorSpace(referenceSpace=ref, name=name, family=family, encoding=encoding,
                         isData=isdata, description=desc)
    for a in aliases:
        cs.addAlias(a)
    if to_ref is not None:
        cs.setTransform(to_ref, ocio.COLORSPACE_DIR_TO_REFERENCE)
    return cs


def display_space(name, from_ref, encoding, desc):
    cs = ocio.ColorSpace(referenceSpace=ocio.REFERENCE_SPACE_DISPLAY, name=name,
                         family="Display", encoding=encoding, description=desc)
    if from_ref is not None:
        cs.setTransform(from_ref, ocio.COLORSPACE_DIR_FROM_REFERENCE)
    return cs


def main(out):
    cfg = ocio.Config.CreateRaw()
    cfg.setVersion(2, 1)
    cfg.setName("hdrtone-builtin-aces-1.0")
    cfg.setDescription("hdrtone's bundled config: OpenColorIO 2.1 builtin transforms under "
                       "the names of the ACES cg config (tools/make_ocio_config.py)")
    cfg.setSearchPath("")
    cfg.setStrictParsingEnabled(True)
    for cs in cfg.getColorSpaces():
        cfg.removeColorSpace(cs.getName())
    for n in list(cfg.getDisplays()):
        for v in list(cfg.getViews(n)):
            cfg.removeDisplayView(n, v)
    scene = [
        space("ACES2065-1", None, "ACES", "scene-linear",
              "ACES AP0 primaries, the ACES white: the reference", ("aces2065_1", "ap0")),
        space("ACEScg", builtin("ACEScg_to_ACES2065-1"), "ACES", "scene-linear",
              "ACES AP1 primaries, the ACES white", ("lin_ap1", "acescg")),
        space("Linear Rec.709 (sRGB)",
              ocio.GroupTransform([builtin("UTILITY - ACES-AP1_to_LINEAR-REC709_BFD", True),
                                   builtin("ACEScg_to_ACES2065-1")]),
              "Utility", "scene-linear", "Rec. 709 primaries, D65", ("lin_rec709", "lin_srgb")),
        space("Linear Rec.2020", linear_from_xyz_primaries("rec2020"), "Utility",
              "scene-linear", "Rec. 2020 primaries, D65", ("lin_rec2020",)),
        space("Linear P3-D65", linear_from_xyz_primaries("p3d65"), "Utility", "scene-linear",
              "P3 primaries, D65", ("lin_p3d65",)),
        space("sRGB - Texture",
              ocio.GroupTransform([srgb_curve(False),
                                   builtin("UTILITY - ACES-AP1_to_LINEAR-REC709_BFD", True),
                                   builtin("ACEScg_to_ACES2065-1")]),
              "Utility", "sdr-video", "the sRGB curve on Rec. 709 primaries", ("srgb_tx",)),
        space("Raw", None, "Utility", "", "the data as it is (no conversion)", ("raw",),
              isdata=True),
    ]
    for cs in scene:
        cfg.addColorSpace(cs)
    p3 = rgb_to_xyz(PRIMARIES["p3d65"], D65)
    displays = [
        display_space("CIE-XYZ-D65", None, "display-linear",
                      "CIE XYZ, D65 white: the display reference"),
        display_space("sRGB - Display", builtin("DISPLAY - CIE-XYZ-D65_to_sRGB"), "sdr-video",
                      "the sRGB curve, Rec. 709 primaries"),
        display_space("Display P3 - Display",
                      ocio.GroupTransform([ocio.MatrixTransform(m44(inv3(p3))),
                                           srgb_curve(True)]),
                      "sdr-video", "the sRGB curve, P3 primaries, D65 (Apple's Display P3)"),
        display_space("Rec.1886 Rec.709 - Display",
                      builtin("DISPLAY - CIE-XYZ-D65_to_REC.1886-REC.709"), "sdr-video",
                      "BT.1886's gamma 2.4, Rec. 709 primaries"),
        display_space("Rec.2100-PQ - Display", builtin("DISPLAY - CIE-XYZ-D65_to_REC.2100-PQ"),
                      "hdr-video", "SMPTE ST 2084 (PQ), Rec. 2020 primaries"),
    ]
    for cs in displays:
        cfg.addColorSpace(cs)
    views = [(SDR, "ACES-OUTPUT - ACES2065-1_to_CIE-XYZ-D65 - SDR-VIDEO_1.0"),
             (HDR, "ACES-OUTPUT - ACES2065-1_to_CIE-XYZ-D65 - HDR-VIDEO-1000nit-15nit-REC2020lim_1.1"),
             (UNTONED, AP0_TO_XYZ)]
    for name, style in views:
        vt = ocio.ViewTransform(referenceSpace=ocio.REFERENCE_SPACE_SCENE, name=name)
        vt.setTransform(builtin(style), ocio.VIEWTRANSFORM_DIR_FROM_REFERENCE)
        cfg.addViewTransform(vt)
    cfg.setDefaultViewTransformName(UNTONED)
    for name, _ in views:
        cfg.addSharedView(name, name, "<USE_DISPLAY_NAME>", "", "", "")
    cfg.addSharedView("Raw", "", "Raw", "", "", "")
    for d in displays[1:]:
        n = d.getName()
        first = HDR if "PQ" in n else SDR
        for v in [first] + [x for x in (SDR, HDR) if x != first] + [UNTONED, "Raw"]:
            cfg.addDisplaySharedView(n, v)
    cfg.setActiveDisplays(", ".join(d.getName() for d in displays[1:]))
    for role, cs in [("aces_interchange", "ACES2065-1"), ("cie_xyz_d65_interchange", "CIE-XYZ-D65"),
                     ("scene_linear", "ACEScg"), ("rendering", "ACEScg"),
                     ("compositing_linear", "ACEScg"), ("color_picking", "sRGB - Texture"),
                     ("texture_paint", "sRGB - Texture"), ("matte_paint", "sRGB - Texture"),
                     ("data", "Raw"), ("default", "ACES2065-1"), ("reference", "ACES2065-1")]:
        cfg.setRole(role, cs)
    cfg.setFileRules(ocio.FileRules())
    cfg.validate()
    text = ("# hdrtone's bundled OCIO config, written by tools/make_ocio_config.py (do not edit:\n"
            "# run it again). OpenColorIO 2.1 builtin transforms, the ACES cg config's names.\n"
            + cfg.serialize())
    with open(out, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "assets/ocio/config.ocio")
