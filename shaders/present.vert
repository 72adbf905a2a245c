// bench's "present by triangle": one triangle that covers the viewport, made from gl_VertexID
// (no vertex buffer), for the present's fragment shader.
void main()
{
    vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
    gl_Position = vec4(2.0 * p - 1.0, 0.0, 1.0);
}
