import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { EmailText } from './email-text';

describe('an e-mail in a narrow column', () => {
  it('may break only before its "@" and before the dots of its domain, and reads as the address', () => {
    const { container } = render(<EmailText email="admin@qa3.example.com" />);
    expect(container.textContent).toBe('admin@qa3.example.com');
    expect(container.innerHTML).toBe('admin<wbr>@qa3<wbr>.example<wbr>.com');
  });
});
