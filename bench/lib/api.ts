/** One JSON call to a bench's server: the answer's body, or an error naming the call and the server's answer. */
export async function call<T>(origin: string, method: string, url: string, token?: string, body?: unknown): Promise<T> {
  const response = await fetch(`${origin}${url}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
  return (response.status === 204 ? undefined : await response.json()) as T;
}
