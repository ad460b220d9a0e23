import matplotlib.pyplot as plt

fig, axes = plt.subplots(1, 3, figsize=(14, 3))
for ax, (dname, oname) in zip(axes, [("relu(gaussian)", "MinMax symmetric"),
                                     ("heavy tail t(3)", "MinMax affine"),
                                     ("heavy tail t(3)", "Histogram affine")]):
    obs = observers[oname]()
    obs(data[dname])
    scale, zp = obs.calculate_qparams()
    s, z = scale.item(), int(zp)
    ax.hist(data[dname].numpy(), bins=96, log=dname.startswith("heavy"))
    ax.axvspan((QMIN - z) * s, (QMAX - z) * s, alpha=0.15)
    ax.set_title(f"{dname} - {oname}")
plt.show()
