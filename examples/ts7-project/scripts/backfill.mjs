// A script outside every tsconfig.json: linted without type information, not a parsing error.
export async function backfill(orderIds) {
  for (const orderId of orderIds) {
    await fetch(`https://pay.example/orders/${orderId}/charge`, {
      method: 'POST',
      headers: { 'Idempotency-Key': crypto.randomUUID() },
    });
  }
}
