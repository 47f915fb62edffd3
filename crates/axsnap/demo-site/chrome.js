// Shared behaviour of the demo shop: the cart dialog, the stock filter and search.
(function () {
  const dialog = document.getElementById('added');
  const cartCount = document.getElementById('cart-count');
  let count = 0;
  document.querySelectorAll('button.add').forEach((b) => {
    b.addEventListener('click', () => {
      count += 1;
      cartCount.textContent = String(count);
      document.getElementById('added-what').textContent = b.dataset.product + ' was added to your cart.';
      dialog.hidden = false;
      document.getElementById('continue').focus();
    });
  });
  const close = () => { dialog.hidden = true; };
  document.getElementById('continue').addEventListener('click', close);
  document.getElementById('close').addEventListener('click', close);
  const stock = document.getElementById('in-stock');
  stock.addEventListener('change', () => {
    document.querySelectorAll('.product.sold-out').forEach((p) => { p.hidden = stock.checked; });
  });
  const form = document.getElementById('search');
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const q = document.getElementById('q').value.toLowerCase();
    let shown = 0;
    document.querySelectorAll('.product').forEach((p) => {
      const hit = p.textContent.toLowerCase().includes(q);
      p.hidden = !hit;
      if (hit) shown += 1;
    });
    document.getElementById('result-note').textContent = shown + ' products match "' + q + '"';
  });
})();
