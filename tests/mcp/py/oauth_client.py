"""Connects to a toolnexus MCP server that asks for OAuth, with the official Python MCP SDK's
OAuth client (`OAuthClientProvider`): it must find the authorization server from the server's
401 alone, register, get the user's consent (here: the authorization URL fetched, its redirect
read) and a token, then list the tools and call `lookup`. Prints one JSON report; the Rust test
judges it (tests/interop.rs)."""

import asyncio
import json
import sys
from urllib.parse import parse_qs, urlparse

import httpx2
from mcp import ClientSession
from mcp.client.auth import AuthorizationCodeResult, OAuthClientProvider, TokenStorage
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import OAuthClientMetadata


class Memory(TokenStorage):
    def __init__(self):
        self.tokens = None
        self.info = None

    async def get_tokens(self):
        return self.tokens

    async def set_tokens(self, tokens):
        self.tokens = tokens

    async def get_client_info(self):
        return self.info

    async def set_client_info(self, client_info):
        self.info = client_info


async def main():
    url = sys.argv[1]
    seen = {}

    async def redirect(authorization_url):
        seen["authorization_url"] = authorization_url
        async with httpx2.AsyncClient(follow_redirects=False) as client:
            answer = await client.get(authorization_url)
        seen["callback"] = answer.headers["location"]

    async def callback():
        query = parse_qs(urlparse(seen["callback"]).query)
        return AuthorizationCodeResult(code=query["code"][0], state=query.get("state", [None])[0])

    metadata = OAuthClientMetadata(
        client_name="python-sdk",
        redirect_uris=["http://127.0.0.1:9/cb"],
        grant_types=["authorization_code", "refresh_token"],
        response_types=["code"],
    )
    storage = Memory()
    provider = OAuthClientProvider(url, metadata, storage, redirect, callback)
    async with httpx2.AsyncClient(auth=provider) as http:
        async with streamable_http_client(url, http_client=http) as streams:
            async with ClientSession(streams[0], streams[1]) as session:
                await session.initialize()
                tools = await session.list_tools()
                result = await session.call_tool("lookup", {})
    print(json.dumps({
        "authorization_url": seen.get("authorization_url"),
        "token": storage.tokens.access_token if storage.tokens else None,
        "tools": [tool.name for tool in tools.tools],
        "lookup": [block.text for block in result.content],
    }))


asyncio.run(main())
