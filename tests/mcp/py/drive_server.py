"""Drives a toolnexus MCP server with the official Python MCP SDK's client and prints what it
saw as one JSON report: over stdio when argv[1] is a program (started with the rest of argv),
over streamable HTTP when argv[1] is a URL. Nothing here judges; the Rust test asserts on the
report and on the server's call log."""

import asyncio
import json
import sys

from mcp import ClientSession, MCPError, StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.types import PaginatedRequestParams


def content(result):
    return [block.model_dump(mode="json", by_alias=True, exclude_none=True) for block in result.content]


def call_report(result):
    return {"is_error": bool(result.is_error), "content": content(result)}


def transport():
    if sys.argv[1].startswith("http"):
        return streamable_http_client(sys.argv[1])
    return stdio_client(StdioServerParameters(command=sys.argv[1], args=sys.argv[2:]))


async def main():
    report = {}
    async with transport() as streams:
        read, write = streams[0], streams[1]
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            report["server"] = init.server_info.name
            report["tools_capability"] = init.capabilities.tools is not None

            pages, names, cursor = 0, [], None
            while True:
                params = PaginatedRequestParams(cursor=cursor) if cursor else None
                listed = await session.list_tools(params=params)
                pages += 1
                names += [tool.name for tool in listed.tools]
                for tool in listed.tools:
                    if tool.name in ("echo", "extra_0"):
                        report[f"{tool.name}_tool"] = tool.model_dump(mode="json", by_alias=True, exclude_none=True)
                cursor = listed.next_cursor
                if not cursor:
                    break
            report["pages"], report["names"] = pages, names

            report["echo"] = call_report(await session.call_tool("echo", {"text": "hello"}))
            report["add"] = call_report(await session.call_tool("add", {"a": 2, "b": 40}))
            report["chart"] = call_report(await session.call_tool("chart", {}))
            report["report"] = call_report(await session.call_tool("report", {}))
            report["fail"] = call_report(await session.call_tool("fail", {"reason": "on purpose"}))
            report["bad_arguments"] = call_report(await session.call_tool("add", {"a": "two"}))
            try:
                await session.call_tool("no_such_tool", {})
                report["unknown"] = "no error"
            except MCPError as error:
                report["unknown"] = {"code": error.code, "message": error.message}

            texts = [f"concurrent {i}" for i in range(20)]
            answers = await asyncio.gather(*(session.call_tool("echo", {"text": t}) for t in texts))
            report["concurrent"] = [a.content[0].text for a in answers]

            report["boom"] = call_report(await session.call_tool("boom", {}))
            report["after_boom"] = call_report(await session.call_tool("echo", {"text": "still here"}))
    print(json.dumps(report))


asyncio.run(main())
