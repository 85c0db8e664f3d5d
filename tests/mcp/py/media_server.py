"""An MCP server on the official Python SDK (MCPServer, stdio) whose tools answer with
`structuredContent` next to other content, as the filesystem server's `read_media_file` does:
`snapshot` an image and structured data that holds the image's base64 again, `summary` text
and structured data, `only_data` structured data alone. For the client's result tests."""

import base64

from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolResult, ImageContent, TextContent

PNG = base64.b64encode(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 64).decode()

server = MCPServer("media")


@server.tool()
def snapshot() -> CallToolResult:
    """An image, with structured content that repeats it."""
    return CallToolResult(
        content=[ImageContent(type="image", data=PNG, mime_type="image/png")],
        structured_content={"content": [{"type": "image", "data": PNG, "mimeType": "image/png"}]},
    )


@server.tool()
def summary() -> CallToolResult:
    """Text, with structured content."""
    return CallToolResult(
        content=[TextContent(type="text", text="3 files")],
        structured_content={"count": 3},
    )


@server.tool()
def only_data() -> CallToolResult:
    """Structured content alone."""
    return CallToolResult(content=[], structured_content={"celsius": 21.5})


server.run()
